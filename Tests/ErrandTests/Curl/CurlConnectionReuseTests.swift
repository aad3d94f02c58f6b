#if canImport(CCurl)
import Errand
import Foundation
import TestSupport
import Testing

/// Connections opened for many requests at a concurrency above the per-host limit: as many as the limit allows,
/// each reused until the run ends. nginx logs every request under /connections/ with its serial number of the
/// connection it came on, so the count is the server's, not the client's own idea of it.
@Suite("Curl transport: connections are reused, not churned")
struct CurlConnectionReuseTests {
    /// Sends `count` requests, `concurrency` at a time, in `bursts` bursts one after the other (each waits for the
    /// last to end, as a benchmark's warm-up and measurement do, or an app's screens), and returns the distinct
    /// connections nginx saw them on.
    private static func connections(
        _ server: TestServer, slots: Int, concurrency: Int, count: Int, bursts: Int = 4, size: String = "small.json"
    ) async throws -> Int {
        let transport = CurlTransport(
            configuration: .init(caBundle: TestServer.certificateAuthority, maxConnectionsPerHost: slots))
        let token = UUID().uuidString
        let request = try CurlTest.request(server, "/connections/\(size)?run=\(token)")
        let perWorker = count / concurrency / bursts
        for _ in 0..<bursts {
            try await withThrowingTaskGroup(of: Void.self) { group in
                for _ in 0..<concurrency {
                    group.addTask {
                        for _ in 0..<perWorker {
                            let response = try await transport.send(request)
                            #expect(response.status == 200)
                        }
                    }
                }
                try await group.waitForAll()
            }
        }
        return try await NginxConnectionLog.connections(
            carrying: token, expecting: perWorker * concurrency * bursts)
    }

    @Test(
        "HTTP/1.1 at twice the per-host limit opens no more connections than the limit",
        .enabled(if: TestServer.nginxHTTP.isUsable))
    func http1Reuse() async throws {
        for size in ["small.json", "big.json"] {
            let opened = try await Self.connections(.nginxHTTP, slots: 8, concurrency: 16, count: 640, size: size)
            #expect(opened <= 8, "\(size): \(opened) connections for 8 slots")
        }
    }

    @Test(
        "HTTP/1.1 one at a time keeps one connection",
        .enabled(if: TestServer.nginxHTTP.isUsable))
    func sequentialReuse() async throws {
        let opened = try await Self.connections(.nginxHTTP, slots: 8, concurrency: 1, count: 100)
        #expect(opened == 1)
    }

    @Test(
        "HTTP/2 multiplexes every request on one connection",
        .enabled(if: TestServer.nginxHTTPS.isUsable))
    func http2Reuse() async throws {
        let opened = try await Self.connections(.nginxHTTPS, slots: 8, concurrency: 64, count: 400)
        #expect(opened == 1)
    }
}

/// nginx's log of the /connections/ route: `<connection serial> <request URI>` per request.
enum NginxConnectionLog {
    /// The distinct connections of the requests whose URI carries `token`, once all `count` of them are logged
    /// (nginx writes a request's line when it has answered it, which the client may see first).
    static func connections(carrying token: String, expecting count: Int) async throws -> Int {
        let path = try serversState() + "/nginx-connections.log"
        var lines: [Substring] = []
        for _ in 0..<200 {
            let text = (try? String(contentsOfFile: path, encoding: .utf8)) ?? ""
            lines = text.split(separator: "\n").filter { $0.contains(token) }
            if lines.count >= count { break }
            // nginx writes a line after it has sent the answer, so the last one can trail what the client saw:
            // the file is another process's, with nothing to wait on but its contents.
            try await Task.sleep(for: .milliseconds(10))
        }
        #expect(lines.count == count, "nginx logged \(lines.count) of \(count) requests")
        return Set(lines.compactMap { $0.split(separator: " ").first }).count
    }
}
#endif
