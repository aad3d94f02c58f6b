import Errand
import Foundation
import TestSupport
import Testing

/// The server's address and the connection of each recorded exchange, against nginx over plain HTTP (it keeps
/// connections alive), checked in the metrics and in the HAR file.
@Suite("HAR server address and connection", .enabled(if: TestServer.nginxHTTP.isUsable))
struct HARConnectionTests {
    func client(_ recorder: HARRecorder, _ transport: any Transport) throws -> APIClient {
        APIClient(
            configuration: ClientConfiguration(
                baseURL: try TestServer.nginxHTTP.url(), transport: transport, observers: [recorder]))
    }

    #if canImport(CCurl)
    @Test("two requests on one kept-alive connection share its id; a new connection has another; the IP is 127.0.0.1")
    func curlConnections() async throws {
        let file = try HARFiles.make("connections-curl")
        let recorder = try HARRecorder(file: file)
        let port = try #require(try TestServer.nginxHTTP.url().port)
        let kept = try client(recorder, TransportKind.curl.make())
        let first = try await kept.send(Request<Data>(path: "small.json"))
        let second = try await kept.send(Request<Data>(path: "small.json"))
        // Another transport opens a connection of its own while the first is still open.
        let other = try await client(recorder, TransportKind.curl.make()).send(Request<Data>(path: "small.json"))
        #expect(second.metrics.connectionReused == true)
        #expect(other.metrics.connectionReused == false)
        for metrics in [first.metrics, second.metrics, other.metrics] {
            #expect(metrics.remoteAddress == "127.0.0.1")
            #expect(metrics.remotePort == port)
            #expect(metrics.localPort != nil)
        }
        await recorder.flush()
        let entries = try HAR(contentsOf: file).log.entries
        #expect(entries.count == 3)
        #expect(entries.map(\.serverIPAddress) == ["127.0.0.1", "127.0.0.1", "127.0.0.1"])
        #expect(entries[0].connection != nil)
        #expect(entries[0].connection == entries[1].connection)
        #expect(entries[2].connection != nil && entries[2].connection != entries[0].connection)
        #expect(entries[0].connection == first.metrics.localPort.map(String.init))
        let raw = ((try HARFiles.json(file)["log"] as? [String: Any])?["entries"] as? [[String: Any]])?.first
        #expect(raw?["serverIPAddress"] as? String == "127.0.0.1", "spelled as HAR 1.2 spells it")
        #expect(raw?["connection"] is String, "HAR's connection is a string")
    }
    #endif

    @Test("URLSession reports the address where the platform fills it: Apple's does, FoundationNetworking does not")
    func urlSession() async throws {
        let file = try HARFiles.make("connections-urlsession")
        let recorder = try HARRecorder(file: file)
        let response = try await client(recorder, URLSessionTransport()).send(Request<Data>(path: "small.json"))
        await recorder.flush()
        let entry = try #require(try HAR(contentsOf: file).log.entries.first)
        #if canImport(FoundationNetworking)
        #expect(response.metrics.remoteAddress == nil)
        #expect(entry.serverIPAddress == nil && entry.connection == nil, "left out, not guessed")
        #else
        #expect(response.metrics.remoteAddress == "127.0.0.1")
        #expect(entry.serverIPAddress == "127.0.0.1")
        #expect(entry.connection != nil)
        #endif
    }
}
