import Foundation
import Synchronization

/// What one benchmark run does: fetch `requests` copies of one file with `concurrency` requests in flight.
struct Workload: Sendable {
    /// The file's size class, as reported.
    let size: FileSize
    /// `http` (HTTP/1.1, one connection per request in flight up to the host limit) or `https` (TLS, HTTP/2, every
    /// request multiplexed on one connection).
    let scheme: Scheme
    /// The server's base URL for the scheme.
    let baseURL: URL
    /// The CA that signed the server's certificate (https).
    let caBundle: URL?
    /// Requests in flight at once.
    let concurrency: Int
    /// Requests measured.
    let requests: Int
    /// The body length every response must have.
    let expectedBytes: Int

    /// The file's full URL.
    var url: URL { baseURL.appendingPathComponent(size.path) }

    /// Requests sent before measuring, so connections are open and caches warm.
    var warmUpRequests: Int { max(concurrency * 2, 20) }

    /// Runs `fetch` `count` times, `concurrency` at a time, each worker taking the next request as it finishes one.
    func concurrently(_ count: Int, _ fetch: @escaping @Sendable () async throws -> Void) async throws {
        let next = RequestCounter()
        try await withThrowingTaskGroup(of: Void.self) { group in
            for _ in 0..<min(concurrency, count) {
                group.addTask {
                    while next.take(below: count) { try await fetch() }
                }
            }
            try await group.waitForAll()
        }
    }

    /// Warms up with ``warmUpRequests`` fetches, then measures ``requests`` of them. `fetch` returns the HTTP version
    /// its response came with, which the measurement reports.
    func warmUpAndMeasure(_ fetch: @escaping @Sendable () async throws -> String?) async throws -> Measurement {
        let version = try await fetch()
        try await concurrently(warmUpRequests) { _ = try await fetch() }
        var measurement = try await measure { _ = try await fetch() }
        measurement.httpVersion = version
        return measurement
    }

    /// The same workload with another request count.
    func with(requests: Int) -> Workload {
        Workload(
            size: size, scheme: scheme, baseURL: baseURL, caBundle: caBundle, concurrency: concurrency,
            requests: requests, expectedBytes: expectedBytes)
    }

    /// Measures `count` = ``requests`` fetches, `concurrency` at a time, timing each one for the median latency.
    ///
    /// Each worker keeps its own latencies (no shared state on the measured path); they are merged at the end.
    func measure(_ fetch: @escaping @Sendable () async throws -> Void) async throws -> Measurement {
        let next = RequestCounter()
        let count = requests
        var latencies: [Duration] = []
        var measurement = try await Measurement.of {
            try await withThrowingTaskGroup(of: [Duration].self) { group in
                for _ in 0..<min(concurrency, count) {
                    group.addTask {
                        var own: [Duration] = []
                        own.reserveCapacity(count / max(concurrency, 1) + 16)
                        let clock = ContinuousClock()
                        while next.take(below: count) {
                            let started = clock.now
                            try await fetch()
                            own.append(clock.now - started)
                        }
                        return own
                    }
                }
                for try await own in group { latencies += own }
            }
        }
        latencies.sort()
        if !latencies.isEmpty { measurement.p50Seconds = latencies[latencies.count / 2].seconds }
        return measurement
    }

    /// Checks a response's body length.
    func check(bodyLength: Int, status: Int = 200) throws {
        guard status == 200, bodyLength == expectedBytes else {
            throw BenchError(
                "\(url.path) answered \(status) with \(bodyLength) bytes, expected 200 with \(expectedBytes)")
        }
    }
}

/// How the benchmark reaches the server.
enum Scheme: String, Sendable, CaseIterable {
    /// Plain HTTP/1.1.
    case http
    /// TLS with HTTP/2, streams multiplexed on one connection.
    case https
}

/// The files the benchmark fetches.
enum FileSize: String, Sendable, CaseIterable {
    /// About 2 KB of JSON.
    case small
    /// About 200 KB of JSON.
    case big

    var path: String { self == .small ? "small.json" : "big.json" }
}

extension Duration {
    /// The duration in seconds.
    var seconds: Double {
        Double(components.seconds) + Double(components.attoseconds) / 1e18
    }
}

/// Hands out request numbers to the workers.
final class RequestCounter: Sendable {
    private let taken = Atomic<Int>(0)

    /// Takes the next request number; false once `limit` have been taken.
    func take(below limit: Int) -> Bool {
        taken.add(1, ordering: .relaxed).oldValue < limit
    }
}

/// A failed benchmark run, with what went wrong.
struct BenchError: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}
