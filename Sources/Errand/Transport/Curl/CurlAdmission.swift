#if canImport(CCurl)
/// The most streams libcurl runs on one HTTP/2 connection (`CURLMOPT_MAX_CONCURRENT_STREAMS`' default), so the most
/// transfers one connection slot of a multiplexing host admits.
let streamsPerConnection = 100

/// Which transfers may enter the multi handle: each host has a number of connection slots, and a transfer enters only
/// while its host has a free one; the others wait in their host's queue, first come first served.
///
/// libcurl has a queue of its own for transfers beyond `CURLMOPT_MAX_HOST_CONNECTIONS`, but libcurl 7.88 looks at
/// every transfer in it after every completion, so its cost per completion grew with the number in flight (56
/// waiting at 64 in flight with 8 connections: a third of the rate lost between 16 and 64 in flight). Here a
/// completion frees one slot and admits at most one waiter of the same host: constant work, however many wait.
///
/// A host whose last response came over HTTP/2 multiplexes its transfers on shared connections, so its slots are
/// streams: ``streamsPerConnection`` per connection. Until a response says so, a host has one slot per connection.
///
/// Generic over what waits (the loop's transfers; plain objects in the tests). Not thread-safe: the loop owns it.
struct CurlAdmission<Ticket: AnyObject> {
    /// One server's slots and queue; a class so that each call finds it with one lookup and changes it in place.
    private final class Host {
        var active = 0
        var multiplexes = false
        var waiting: [Ticket] = []
        /// Index of the first waiter in `waiting`: taking from the front costs no shifting.
        var head = 0

        var waitingCount: Int { waiting.count - head }
        var isIdle: Bool { active == 0 && waitingCount == 0 && !multiplexes }

        func hasRoom(_ perHost: Int) -> Bool {
            active < (multiplexes ? perHost * streamsPerConnection : perHost)
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
    private static var rememberedHosts: Int { 256 }

    /// Slots per host: connections, or over HTTP/2 connections times ``streamsPerConnection``.
    let perHost: Int
    private var hosts: [String: Host] = [:]
    private var active = 0

    init(perHost: Int) {
        self.perHost = max(1, perHost)
    }

    /// Transfers holding a slot.
    var activeCount: Int { active }

    /// Transfers waiting for a slot, over all hosts.
    var waitingCount: Int { hosts.values.reduce(0) { $0 + $1.waitingCount } }

    /// Asks for a slot at `host`: true when the ticket has one now, false when it waits in the host's queue.
    mutating func request(_ ticket: Ticket, host: String) -> Bool {
        let entry = hosts[host] ?? remember(host)
        if entry.waitingCount == 0, entry.hasRoom(perHost) {
            entry.active += 1
            active += 1
            return true
        }
        entry.waiting.append(ticket)
        return false
    }

    /// Takes a waiting ticket out of its host's queue (a cancelled or timed-out transfer); false when it was not
    /// waiting there.
    mutating func withdraw(_ ticket: Ticket, host: String) -> Bool {
        guard let entry = hosts[host],
            let index = entry.waiting[entry.head...].firstIndex(where: { $0 === ticket })
        else { return false }
        entry.waiting.remove(at: index)
        return true
    }

    /// Frees a slot at `host`; returns the ticket that now holds it, if one was waiting.
    mutating func release(host: String) -> Ticket? {
        guard let entry = hosts[host], entry.active > 0 else { return nil }
        entry.active -= 1
        active -= 1
        guard entry.hasRoom(perHost), let next = entry.takeFirst() else { return nil }
        entry.active += 1
        active += 1
        return next
    }

    /// Records whether `host` multiplexes (its last response came over HTTP/2); returns the tickets admitted by the
    /// room that makes.
    mutating func noteMultiplexing(_ multiplexes: Bool, host: String) -> [Ticket] {
        guard let entry = hosts[host], entry.multiplexes != multiplexes else { return [] }
        entry.multiplexes = multiplexes
        var admitted: [Ticket] = []
        while entry.hasRoom(perHost), let next = entry.takeFirst() {
            entry.active += 1
            admitted.append(next)
        }
        active += admitted.count
        return admitted
    }

    private mutating func remember(_ host: String) -> Host {
        if hosts.count >= Self.rememberedHosts { hosts = hosts.filter { !$0.value.isIdle } }
        let entry = Host()
        hosts[host] = entry
        return entry
    }
}
#endif
