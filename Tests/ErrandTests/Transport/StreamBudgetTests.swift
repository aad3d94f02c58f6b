import Errand
import Foundation
import TestSupport
import Testing

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// Streams count in a budget of their own (``AdmissionLane``): however many streams hold a server's connections, a
/// plain request to that server still goes, on both transports; over HTTP/2 the streams waiting for a slot share the
/// connection as soon as the first stream's head says the server multiplexes.
@Suite("Streams do not starve requests", .enabled(if: TestServer.sse.isUsable))
struct StreamBudgetTests {
    /// A transport that allows `perServer` connections per server.
    static func transport(_ kind: TransportKind, perServer: Int) -> any Transport {
        switch kind {
        case .urlSession:
            let configuration = URLSessionConfiguration.default
            configuration.httpMaximumConnectionsPerHost = perServer
            return URLSessionTransport(configuration: configuration)
        #if canImport(CCurl)
        case .curl:
            return CurlTransport(
                configuration: .init(caBundle: TestServer.certificateAuthority, maxConnectionsPerHost: perServer))
        #endif
        }
    }

    @Test(
        "with every connection of a server held by an event stream, a plain request to it still succeeds",
        arguments: TransportKind.allCases)
    func requestBesideStreams(kind: TransportKind) async throws {
        var configuration = ClientConfiguration(
            baseURL: try TestServer.sse.url(), transport: Self.transport(kind, perServer: 2))
        configuration.timeout = .seconds(30)
        let client = APIClient(configuration: configuration)
        let key = "budget-\(kind)-\(UUID())"
        // More streams than the server has connections: each sends one event and then holds its connection.
        let firstEvents = AsyncStream<Int>.makeStream()
        let streams = (0..<3).map { index in
            Task {
                // After its one event the loop waits for a next one that never comes, holding the connection.
                for try await _ in client.events(Request(path: "hold/\(key)-\(index)")) {
                    firstEvents.continuation.yield(index)
                }
            }
        }
        defer { for stream in streams { stream.cancel() } }
        // Two streams hold the two connections (the third waits for one).
        var opened = 0
        for await _ in firstEvents.stream {
            opened += 1
            if opened == 2 { break }
        }
        let plain = Request<Data>(path: "status/\(key)/200", timeout: .seconds(10))
        let response = try await client.send(plain)
        #expect(response.status == 200)
        #expect(String(decoding: response.value, as: UTF8.self) == "status 200\n")
    }

    #if canImport(CCurl)
    @Test("over HTTP/2, streams started before any head share the connection once the first head arrives")
    func http2StreamsShareAtTheFirstHead() async throws {
        let served = try DownloadTests.Served(size: 512 * 1024)
        var configuration = ClientConfiguration(
            baseURL: try TestServer.nginxHTTPS.url(), transport: Self.transport(.curl, perServer: 1))
        configuration.timeout = .seconds(20)
        let client = APIClient(configuration: configuration)
        // Each body comes at a byte a second after its first 256 KiB: no stream ends while the test runs, so a
        // stream waiting for the first one's slot would wait until its timeout.
        let request = Request<Data>(
            path: "slow-downloads/\(served.name)", headers: ["X-Limit-Rate": "1"], timeout: .seconds(15))
        // The responses are kept, unread, until all three heads are in: a dropped one would end its transfer and
        // free its slot.
        let responses = try await withThrowingTaskGroup(of: StreamingResponse.self) { group in
            for _ in 0..<3 {
                group.addTask { try await client.stream(request) }
            }
            var responses: [StreamingResponse] = []
            for try await response in group { responses.append(response) }
            return responses
        }
        #expect(responses.count == 3)
        #expect(responses.allSatisfy { $0.status == 200 && $0.headers["Content-Length"] == String(512 * 1024) })
    }
    #endif
}
