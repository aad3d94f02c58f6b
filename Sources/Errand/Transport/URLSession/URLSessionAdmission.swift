import Foundation
import Synchronization

/// How many of ``URLSessionTransport``'s exchanges run at once per server (scheme, host and port); the others wait
/// their turn in arrival order, and a cancelled waiter leaves at once.
///
/// FoundationNetworking (Linux) reads every running task's body as fast as the network delivers and queues the chunks
/// for the delegate without any backpressure, so memory grows with the number of exchanges in flight: mixed bodies of
/// up to 32 MiB peaked at about 1.2 GB with 64 in flight and 0.28 GB with 6 (`scripts/bench --memory`). Admitting
/// `httpMaximumConnectionsPerHost` exchanges per server bounds that by what the session's configuration already says.
/// Apple's URLSession schedules its tasks itself (and multiplexes HTTP/2), so there the transport admits everything.
final class URLSessionAdmission: Sendable {
    /// Exchanges admitted per server at once.
    let perServer: Int

    /// How many servers' limiters are kept before the idle ones are dropped.
    private static var rememberedServers: Int { 64 }

    private let limiters = Mutex<[String: ConcurrencyLimiter]>([:])

    init(perServer: Int) {
        self.perServer = max(1, perServer)
    }

    /// Runs `exchange` once `url`'s server has a free slot; throws ``ErrandError/cancelled`` if the task is cancelled
    /// while waiting.
    func withSlot<Value: Sendable>(
        for url: URL, _ exchange: () async throws -> Value
    ) async throws -> Value {
        let limiter = limiter(for: Self.serverKey(of: url))
        try await limiter.acquire()
        defer { limiter.release() }
        return try await exchange()
    }

    /// How many exchanges with `url`'s server hold a slot, and how many wait for one.
    func occupancy(of url: URL) -> (running: Int, waiting: Int) {
        let limiter = limiters.withLock { $0[Self.serverKey(of: url)] }
        return (limiter?.running ?? 0, limiter?.waitingCount ?? 0)
    }

    private func limiter(for key: String) -> ConcurrencyLimiter {
        limiters.withLock { limiters in
            if let existing = limiters[key] { return existing }
            if limiters.count >= Self.rememberedServers {
                limiters = limiters.filter { $0.value.running > 0 || $0.value.waitingCount > 0 }
            }
            let created = ConcurrencyLimiter(limit: perServer)
            limiters[key] = created
            return created
        }
    }

    /// `scheme://host:port`, with the scheme's default port filled in and the host lowercased.
    static func serverKey(of url: URL) -> String {
        let scheme = url.scheme?.lowercased() ?? ""
        let port = url.port ?? (scheme == "https" ? 443 : 80)
        return "\(scheme)://\(url.host?.lowercased() ?? ""):\(port)"
    }
}
