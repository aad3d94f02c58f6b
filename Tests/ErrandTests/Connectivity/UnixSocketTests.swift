#if canImport(CCurl)
import Errand
import Foundation
import Testing
import TestSupport

/// CurlTransport to nginx on a Unix-domain socket.
@Suite("Unix-domain sockets", .enabled(if: ConnectivityServers.isUsable))
struct UnixSocketTests {
    func client(socket: String, base: String = "http://localhost") throws -> APIClient {
        var configuration = CurlTransport.Configuration()
        configuration.unixSocketPath = socket
        return APIClient(
            configuration: ClientConfiguration(
                baseURL: try #require(URL(string: base)), transport: CurlTransport(configuration: configuration)))
    }

    @Test("requests reach the server on the socket, not the URL's port; the URL's host still names it")
    func reachesTheSocket() async throws {
        // Plain http to a host that is not loopback would be refused above the transport, socket or not.
        let client = try client(socket: ConnectivityServers.socketPath(), base: "http://localhost:8080")
        let whoami = try await client.send(Request<String>(path: "whoami"))
        #expect(whoami.value == "unix socket, Host: localhost")
        let file = try await client.send(Request<Data>(path: "small.json"))
        #expect(file.status == 200)
        #expect(file.value.count > 1000)
    }

    @Test("concurrent requests share the socket's connections")
    func concurrentRequests() async throws {
        let client = try client(socket: ConnectivityServers.socketPath())
        let statuses = try await withThrowingTaskGroup(of: Int.self) { group in
            for _ in 0..<16 { group.addTask { try await client.send(Request<Data>(path: "small.json")).status } }
            return try await group.reduce(into: [Int]()) { $0.append($1) }
        }
        #expect(statuses == Array(repeating: 200, count: 16))
    }

    @Test("a socket nobody listens on fails as a connection failure, naming no secret")
    func missingSocket() async throws {
        let client = try client(socket: "/nonexistent/errand-test.sock")
        let error = await #expect(throws: ErrandError.self) {
            _ = try await client.send(Request<Data>(path: "small.json"))
        }
        #expect(error?.isTransport(.cannotConnect) == true)
    }
}
#endif
