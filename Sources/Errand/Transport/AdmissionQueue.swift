/// The most streams one HTTP/2 connection carries at once (libcurl's `CURLMOPT_MAX_CONCURRENT_STREAMS` default), so
/// the most exchanges one connection slot of a multiplexing server admits.
let streamsPerConnection = 100

/// Which of a server's two budgets an exchange counts in.
///
/// A stream (an event stream, a download, a body read as it arrives) may hold its connection for hours, so streams
/// have slots of their own beside the slots of buffered exchanges: however many streams a server has open, a plain
/// request to it still finds a connection. Each lane has the transport's per-server limit, so a server sees at most
/// twice that many connections.
struct AdmissionLane<Server: Hashable & Sendable>: Hashable, Sendable {
    /// The server, as the transport tells servers apart.
    var server: Server
    /// Whether the exchange is a stream.
    var isStream: Bool
}

/// Which exchanges may go on the wire: each server has a number of connection slots, and an exchange goes only while
/// its server has a free one; the others wait in their server's queue, first come first served.
///
/// Both transports admit through it. libcurl has a queue of its own for transfers beyond
/// `CURLMOPT_MAX_HOST_CONNECTIONS`, but libcurl 7.88 looks at every transfer in it after every completion, so its cost
/// per completion grew with the number in flight (56 waiting at 64 in flight with 8 connections: a third of the rate
/// lost between 16 and 64 in flight). FoundationNetworking has none that bounds memory (``URLSessionAdmission``).
/// Here a completion frees one slot and admits at most one waiter of the same server: constant work, however many
/// wait.
///
/// A server whose last response came over HTTP/2 multiplexes its exchanges on shared connections, so its slots are
/// streams: ``streamsPerConnection`` per connection. Until a response says so, a server has one slot per connection.
///
/// Generic over what tells servers apart (`Key`) and over what waits (`Ticket`: curl's transfers, URLSession's
/// suspended callers, plain objects in the tests). Not thread-safe: its owner serialises access (curl's loop thread,
/// URLSession admission's lock).
struct AdmissionQueue<Key: Hashable & Sendable, Ticket: AnyObject> {
    /// One server's slots and queue; a class so that each call finds it with one lookup and changes it in place.
    private final class Server {
        var active = 0
        var multiplexes = false
        var waiting: [Ticket] = []
        /// Index of the first waiter in `waiting`: taking from the front costs no shifting.
        var head = 0

        var waitingCount: Int { waiting.count - head }
        var isIdle: Bool { active == 0 && waitingCount == 0 && !multiplexes }

        func hasRoom(_ perServer: Int) -> Bool {
            active < (multiplexes ? perServer * streamsPerConnection : perServer)
        }

        func takeFirst() -> Ticket? {
            guard head < waiting.count else { return nil }
            let first = waiting[head]
            head += 1
            if head == waiting.count {
                waiting.removeAll(keepingCapacity: true)
                head = 0
            } else if head >= 64, head * 2 >= waiting.count {
                waiting.removeFirst(head)
                head = 0
            }
            return first
        }
    }

    /// How many servers are remembered before those with nothing held or waiting are forgotten; a client talks to a
    /// few servers, and keeping their (empty) entries spares a removal and an insertion per request.
    private static var rememberedServers: Int { 256 }

    /// Slots per server: connections, or over HTTP/2 connections times ``streamsPerConnection``.
    let perServer: Int
    private var servers: [Key: Server] = [:]
    private var active = 0

    init(perServer: Int) {
        self.perServer = max(1, perServer)
    }

    /// Exchanges holding a slot.
    var activeCount: Int { active }

    /// Exchanges waiting for a slot, over all servers.
    var waitingCount: Int { servers.values.reduce(0) { $0 + $1.waitingCount } }

    /// How many exchanges with `server` hold a slot, and how many wait for one.
    func occupancy(of server: Key) -> (running: Int, waiting: Int) {
        guard let entry = servers[server] else { return (0, 0) }
        return (entry.active, entry.waitingCount)
    }

    /// Asks for a slot at `server`: true when the ticket has one now, false when it waits in the server's queue.
    mutating func request(_ ticket: Ticket, at server: Key) -> Bool {
        let entry = servers[server] ?? remember(server)
        if entry.waitingCount == 0, entry.hasRoom(perServer) {
            entry.active += 1
            active += 1
            return true
        }
        entry.waiting.append(ticket)
        return false
    }

    /// Takes a waiting ticket out of its server's queue (a cancelled or timed-out exchange); false when it was not
    /// waiting there.
    mutating func withdraw(_ ticket: Ticket, at server: Key) -> Bool {
        guard let entry = servers[server],
            let index = entry.waiting[entry.head...].firstIndex(where: { $0 === ticket })
        else { return false }
        entry.waiting.remove(at: index)
        return true
    }

    /// Frees a slot at `server`; returns the ticket that now holds it, if one was waiting.
    mutating func release(at server: Key) -> Ticket? {
        guard let entry = servers[server], entry.active > 0 else { return nil }
        entry.active -= 1
        active -= 1
        guard entry.hasRoom(perServer), let next = entry.takeFirst() else { return nil }
        entry.active += 1
        active += 1
        return next
    }

    /// Records whether `server` multiplexes (its last response came over HTTP/2); returns the tickets admitted by the
    /// room that makes.
    mutating func noteMultiplexing(_ multiplexes: Bool, at server: Key) -> [Ticket] {
        guard let entry = servers[server], entry.multiplexes != multiplexes else { return [] }
        entry.multiplexes = multiplexes
        var admitted: [Ticket] = []
        while entry.hasRoom(perServer), let next = entry.takeFirst() {
            entry.active += 1
            admitted.append(next)
        }
        active += admitted.count
        return admitted
    }

    private mutating func remember(_ server: Key) -> Server {
        if servers.count >= Self.rememberedServers { servers = servers.filter { !$0.value.isIdle } }
        let entry = Server()
        servers[server] = entry
        return entry
    }
}
