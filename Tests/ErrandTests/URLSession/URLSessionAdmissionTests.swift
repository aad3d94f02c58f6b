@testable import Errand
import Foundation
import TestSupport
import Testing
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// On Linux, URLSessionTransport runs at most `httpMaximumConnectionsPerHost` exchanges per server at once, because
/// FoundationNetworking queues every running task's chunks without backpressure.
@Suite("URLSession transport: exchanges admitted per server")
struct URLSessionAdmissionTests {
    #if canImport(FoundationNetworking)
    @Test("six requests to a server admitting two at a time: two run, four wait in the transport")
    func admitsPerServer() async throws {
        let server = try HostileServer(
            head: ["HTTP/1.1 200 OK", "Content-Length: 2"], body: Array("ok".utf8), holdsResponses: true)
        let other = try HostileServer(head: ["HTTP/1.1 200 OK", "Content-Length: 0"])
        let configuration = URLSessionConfiguration.default
        configuration.httpMaximumConnectionsPerHost = 2
        let transport = URLSessionTransport(configuration: configuration)
        let request = TransportRequest(url: server.url(), timeouts: Timeouts(total: .seconds(20)))
        try await withThrowingTaskGroup(of: Int.self) { group in
            for _ in 0..<6 { group.addTask { try await transport.send(request).status } }
            await server.waitForRequests(2)
            // Another server is not held up by the first one's queue; its answer also gives the four waiting
            // requests time to reach the held server if the transport let them.
            #expect(try await transport.send(TransportRequest(url: other.url())).status == 200)
            #expect(server.openRequests == 2)
            // The other four wait in the transport, so FoundationNetworking holds no task (and no buffers) for them.
            let occupancy = try #require(transport.admission).occupancy(of: server.url())
            #expect(occupancy.running == 2 && occupancy.waiting == 4, "\(occupancy)")
            server.release()
            var statuses: [Int] = []
            for try await status in group { statuses.append(status) }
            #expect(statuses == Array(repeating: 200, count: 6))
        }
        #expect(server.peakOpenRequests == 2)
        #expect(server.servedRequests == 6)
    }

    @Test("a request cancelled while it waits for a slot leaves the queue at once")
    func cancelledWhileWaiting() async throws {
        let server = try HostileServer(head: ["HTTP/1.1 200 OK", "Content-Length: 0"], holdsResponses: true)
        let configuration = URLSessionConfiguration.default
        configuration.httpMaximumConnectionsPerHost = 1
        let transport = URLSessionTransport(configuration: configuration)
        let request = TransportRequest(url: server.url(), timeouts: Timeouts(total: .seconds(20)))
        let first = Task { try await transport.send(request) }
        await server.waitForRequests(1)
        let waiting = Task { try await transport.send(request) }
        waiting.cancel()
        let outcome = await waiting.result
        let error = #expect(throws: ErrandError.self) { try outcome.get() }
        #expect(error.map { if case .cancelled = $0 { true } else { false } } == true, "\(String(describing: error))")
        server.release()
        #expect(try await first.value.status == 200)
        #expect(server.servedRequests == 1)
    }
    #endif

    @Test("servers are told apart by scheme, host and port, with the default ports filled in")
    func serverKeys() throws {
        #expect(URLSessionAdmission.serverKey(of: URL(string: "http://Example.com/a")!) == "http://example.com:80")
        #expect(URLSessionAdmission.serverKey(of: URL(string: "https://example.com/a")!) == "https://example.com:443")
        #expect(
            URLSessionAdmission.serverKey(of: URL(string: "http://example.com:8080/")!) == "http://example.com:8080")
    }
}
