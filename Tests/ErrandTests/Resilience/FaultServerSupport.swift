import Errand
import Foundation
import Synchronization
import Testing
import TestSupport

/// One test's corner of the fault server: a key of its own, clients that talk to it, and its request log.
struct FaultScenario {
    /// One request as the fault server logged it.
    struct Entry: Decodable {
        var time: Double
        var method: String
        var path: String
        var query: String
        var headers: [String: String]
        /// The bytes of its body.
        var length: Int

        /// A request header's value, whatever the case of its name on the wire.
        func header(_ name: String) -> String? {
            headers.first { $0.key.lowercased() == name.lowercased() }?.value
        }
    }

    /// Counters the fault server keeps for a key.
    struct Stats: Decodable {
        var count: Int
        var maxInFlight: Int

        enum CodingKeys: String, CodingKey {
            case count
            case maxInFlight = "max_in_flight"
        }
    }

    let base: URL
    let key: String
    let transport: TransportKind
    private let plain: APIClient

    init(_ transport: TransportKind, name: String = #function) throws {
        base = try TestServer.fault.url()
        let slug = name.prefix { $0 != "(" }.filter { $0.isLetter || $0.isNumber }
        key = "\(slug)-\(transport.rawValue)-\(UUID().uuidString.prefix(8))"
        self.transport = transport
        plain = APIClient(configuration: ClientConfiguration(baseURL: base, transport: transport.make()))
    }

    /// A client for the fault server with the given middleware, observers and clock.
    func client(
        _ middleware: [any Middleware] = [], observers: [any ExchangeObserver] = [], timeout: Duration = .seconds(10),
        clock: any Clock<Duration> = ContinuousClock()
    ) -> APIClient {
        APIClient(
            configuration: ClientConfiguration(
                baseURL: base, transport: transport.make(), middleware: middleware, observers: observers,
                timeout: timeout, clock: clock))
    }

    /// The path of a fault for this scenario's key, as `fail/KEY/2/503`.
    func path(_ fault: String, _ rest: String...) -> String {
        ([fault, key] + rest).joined(separator: "/")
    }

    /// Every request the server saw for this key, oldest first.
    func log() async throws -> [Entry] {
        let response = try await plain.send(Request<[Entry]>(path: "__log", query: [QueryItem("key", key)]))
        return response.value
    }

    /// The server's counters for this key.
    func stats() async throws -> Stats {
        try await plain.send(Request<Stats>(path: "__stats", query: [QueryItem("key", key)])).value
    }

    /// Seconds between consecutive logged requests.
    func gaps() async throws -> [Double] {
        let times = try await log().map(\.time)
        return zip(times.dropFirst(), times).map { $0 - $1 }
    }
}

/// Records every exchange event, and lets a test wait for the n-th one.
final class EventRecorder: ExchangeObserver {
    private let events = Mutex<[ExchangeEvent]>([])
    private let stream: AsyncStream<ExchangeEvent>
    private let continuation: AsyncStream<ExchangeEvent>.Continuation

    init() {
        (stream, continuation) = AsyncStream.makeStream(of: ExchangeEvent.self)
    }

    func exchangeDidFinish(_ event: ExchangeEvent) {
        events.withLock { $0.append(event) }
        continuation.yield(event)
    }

    /// Every event so far.
    var recorded: [ExchangeEvent] { events.withLock { $0 } }

    /// The attempt numbers reported so far.
    var attempts: [Int] { recorded.map(\.attempt) }

    /// Waits until `count` events have been delivered since the recorder was made.
    func waitForEvents(_ count: Int) async {
        var seen = 0
        for await _ in stream {
            seen += 1
            if seen >= count { return }
        }
    }
}

extension Duration {
    /// The duration in seconds.
    var inSeconds: Double {
        Double(components.seconds) + Double(components.attoseconds) / 1e18
    }
}

/// Waits until `condition` holds, checking it every millisecond; gives up after `limit`.
///
/// For conditions nothing announces (a queue's length, a server's count); a test that waits on a clock uses a
/// manual clock and its sleepers instead. The limit is generous, for a machine busy with tests in parallel.
func waitUntil(_ limit: Duration = .seconds(30), _ condition: () async -> Bool) async -> Bool {
    let deadline = ContinuousClock.now + limit
    while await !condition() {
        if ContinuousClock.now > deadline { return false }
        try? await Task.sleep(for: .milliseconds(1))
    }
    return true
}

/// A value shared between test tasks.
final class Locked<Value: Sendable>: Sendable {
    private let mutex: Mutex<Value>

    init(_ value: Value) { mutex = Mutex(value) }

    func withLock<Result: Sendable>(_ body: (inout Value) -> Result) -> Result { mutex.withLock { body(&$0) } }
}
