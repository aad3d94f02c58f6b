import Errand
import Foundation

/// One way of fetching the workload's file; each variant is one function returning its measurement.
///
/// To add a variant (a middleware chain, cache hits, …) write one more function like ``errandCurl(_:)`` and list it
/// in ``all``.
struct BenchClient: Sendable {
    /// The name in the table and the JSON (`errand-curl`, `raw-libcurl`, …).
    let name: String
    /// Sets the client up, warms it, and measures the workload's requests.
    let run: @Sendable (Workload) async throws -> Measurement

    /// Every client, in the order they run.
    static let all: [BenchClient] = [
        BenchClient(name: "errand-curl", run: errandCurl),
        BenchClient(name: "errand-urlsession", run: errandURLSession),
        BenchClient(name: "raw-libcurl", run: RawLibcurl.run),
    ]

    /// Errand's `APIClient` over ``CurlTransport`` with its default configuration.
    static func errandCurl(_ workload: Workload) async throws -> Measurement {
        try await measureErrand(workload, transport: CurlTransport())
    }

    /// Errand's `APIClient` over ``URLSessionTransport``.
    static func errandURLSession(_ workload: Workload) async throws -> Measurement {
        try await measureErrand(workload, transport: URLSessionTransport())
    }

    /// Sends `Request<Data>` through an `APIClient`: URL building, middleware chain, status check, and transport.
    private static func measureErrand(_ workload: Workload, transport: any Transport) async throws -> Measurement {
        // Identity encoding: the benchmark measures clients, not nginx compressing every response on the same cores.
        let client = APIClient(configuration: ClientConfiguration(
            baseURL: workload.baseURL, headers: ["Accept-Encoding": "identity"], transport: transport,
            maxResponseBodySize: 10_000_000))
        let request = Request<Data>(path: workload.size.path)
        let fetch: @Sendable () async throws -> Void = {
            let response = try await client.send(request)
            try workload.check(bodyLength: response.value.count, status: response.status)
        }
        try await workload.concurrently(workload.warmUpRequests, fetch)
        return try await Measurement.of { try await workload.concurrently(workload.requests, fetch) }
    }
}
