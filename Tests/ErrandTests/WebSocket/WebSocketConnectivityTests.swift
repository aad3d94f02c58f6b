#if canImport(CCurl)
import Errand
import Foundation
import TestSupport
import Testing

/// The connection under a WebSocket gets the curl transport's TLS trust, proxy and client certificate.
@Suite("WebSocket over TLS, through a proxy, with a client certificate")
struct WebSocketConnectivityTests {
    private func client(_ baseURL: URL, _ configure: (inout CurlTransport.Configuration) -> Void = { _ in })
        -> APIClient
    {
        var configuration = CurlTransport.Configuration(caBundle: TestServer.certificateAuthority)
        configure(&configuration)
        return APIClient(
            configuration: ClientConfiguration(baseURL: baseURL, transport: CurlTransport(configuration: configuration))
        )
    }

    @Test(
        "wss: the websockets server over TLS, its certificate checked against the test CA",
        .enabled(if: TestServer.webSocketTLS.isUsable))
    func secure() async throws {
        let base = try TestServer.webSocketTLS.url()
        #expect(base.scheme == "https")
        var components = try #require(URLComponents(url: base, resolvingAgainstBaseURL: false))
        components.scheme = "wss"
        components.path = "/echo"
        let socket = try await client(base).webSocket(Request(url: try #require(components.url)))
        #expect(await socket.isCompressed)
        var messages = socket.messages.makeAsyncIterator()
        for message in WebSocketCompressionServerTests.messages() {
            try await socket.send(message)
            #expect(try await messages.next() == message)
        }
        await socket.close()
        #expect(try await messages.next() == nil)
        #expect(await socket.closeCode == .normalClosure)
    }

    @Test(
        "wss with a CA that did not sign the server's certificate fails as TLS",
        .enabled(if: TestServer.webSocketTLS.isUsable))
    func untrusted() async throws {
        let client = APIClient(
            configuration: ClientConfiguration(baseURL: try TestServer.webSocketTLS.url(), transport: CurlTransport()))
        let error = await #expect(throws: ErrandError.self) { _ = try await client.webSocket(Request(path: "/echo")) }
        guard case .transport(let failure) = error else {
            Issue.record("expected a transport failure, got \(String(describing: error))")
            return
        }
        #expect(failure.kind == .tls)
    }

    @Test(
        "ws through tinyproxy: a CONNECT tunnel to the server, the proxy's credentials its own",
        .enabled(if: TestServer.webSocket.isUsable && ConnectivityServers.isUsable))
    func throughProxy() async throws {
        let server = try TestServer.webSocket.url()
        var proxy = try ProxyServer(parsing: "http://" + ConnectivityServers.proxyAddress())
        proxy.credentials = ProxyCredentials(
            user: try ConnectivityServers.proxyUser(), password: try ConnectivityServers.proxyPassword())
        let socket = try await client(server) { $0.proxy = ProxySettings(proxy: proxy) }.webSocket(
            Request(path: "/headers"))
        var messages = socket.messages.makeAsyncIterator()
        guard case .text(let json) = try await messages.next() else {
            Issue.record("no headers message")
            return
        }
        let headers = try JSONDecoder().decode([String: String].self, from: Data(json.utf8))
        #expect(headers["proxy-authorization"] == nil)
        try await socket.send(.text("through the tunnel"))
        #expect(try await messages.next() == .text("through the tunnel"))
        await socket.close()
        let port = try #require(server.port)
        #expect(try ConnectivityServers.proxyLog().contains("CONNECT 127.0.0.1:\(port)"))
    }

    @Test(
        "ws through a proxy that wants credentials fails with a proxy error",
        .enabled(if: TestServer.webSocket.isUsable && ConnectivityServers.isUsable))
    func proxyRefuses() async throws {
        let proxy = try ProxyServer(parsing: "http://" + ConnectivityServers.proxyAddress())
        let client = try client(TestServer.webSocket.url()) { $0.proxy = ProxySettings(proxy: proxy) }
        let error = await #expect(throws: ErrandError.self) { _ = try await client.webSocket(Request(path: "/echo")) }
        guard case .transport(let failure) = error else {
            Issue.record("expected a transport failure, got \(String(describing: error))")
            return
        }
        #expect(failure.kind == .proxy)
        #expect(failure.underlying.contains("asks for"))
    }

    @Test(
        "the upgrade's connection presents the client certificate: nginx with ssl_verify_client answers 400 without it",
        .enabled(if: ConnectivityServers.isUsable))
    func clientCertificate() async throws {
        let base = try ConnectivityServers.mutualTLSURL()
        let certificate = ClientCertificate(
            certificate: .file(try ConnectivityServers.tlsFile("client.pem")),
            key: .file(try ConnectivityServers.tlsFile("client.key")))
        for (presented, status) in [(certificate, 200), (nil, 400)] as [(ClientCertificate?, Int)] {
            let client = client(base) { $0.clientCertificate = presented }
            let error = await #expect(throws: ErrandError.self) {
                _ = try await client.webSocket(Request(path: "/whoami"))
            }
            guard case .unacceptableStatus(let failure) = error else {
                Issue.record("expected nginx's answer, not an upgrade: \(String(describing: error))")
                continue
            }
            #expect(failure.status == status)
        }
    }
}
#endif
