#if canImport(CCurl)
import Errand
import Foundation
import Testing
import TestSupport

/// CurlTransport through an HTTPS proxy: TLS to the proxy (Tests/Servers/tls_relay.py with the harness's certificate)
/// in front of the open tinyproxy.
@Suite("Curl through an HTTPS proxy", .enabled(if: ConnectivityServers.isUsable))
struct HTTPSProxyTests {
    struct HeadersAnswer: Decodable { var headers: [String: String] }

    func proxy() throws -> ProxyServer {
        try ProxyServer(parsing: ConnectivityServers.value("ERRAND_HTTPS_PROXY_URL"))
    }

    func client(_ server: TestServer, trust: ServerTrust?) throws -> APIClient {
        var configuration = CurlTransport.Configuration(caBundle: TestServer.certificateAuthority)
        configuration.trust = trust
        configuration.proxy = ProxySettings(proxy: try proxy())
        return APIClient(
            configuration: ClientConfiguration(
                baseURL: try server.url(), transport: CurlTransport(configuration: configuration)))
    }

    func relayedConnections() throws -> Int {
        let path = try ConnectivityServers.value("SERVERS_STATE") + "/tls_relay-connections.jsonl"
        let text = (try? String(contentsOfFile: path, encoding: .utf8)) ?? ""
        return text.split(separator: "\n").filter { $0.contains("\"TLSv1.") }.count
    }

    @Test("plain http goes over TLS to the proxy: the relay saw a TLS connection and tinyproxy the request")
    func plainHTTP() async throws {
        let before = try relayedConnections()
        let marker = UUID().uuidString
        let answer = try await client(.httpbin, trust: nil).send(Request<HeadersAnswer>(path: "anything/\(marker)"))
        #expect(answer.status == 200)
        #expect(try relayedConnections() > before)
        #expect(try ConnectivityServers.proxyLog("tinyproxy-open").contains(marker))
    }

    @Test("https tunnels through the TLS proxy, the proxy and the server each checked against a ServerTrust's anchors")
    func httpsInsideTLS() async throws {
        let trust = ServerTrust(
            anchors: try ServerTrust.Anchor.certificates(pem: Data(contentsOf: TrustFixtures.file("ca.pem"))))
        let before = try relayedConnections()
        let response = try await client(.nginxHTTPS, trust: trust).send(Request<Data>(path: "small.json"))
        #expect(response.status == 200)
        #expect(try relayedConnections() > before)
    }

    @Test("a proxy whose certificate is not trusted is refused before any request reaches it")
    func untrustedProxy() async throws {
        let trust = ServerTrust(
            anchors: try ServerTrust.Anchor.certificates(pem: Data(contentsOf: TrustFixtures.file("other.pem"))))
        let marker = UUID().uuidString
        await #expect(throws: ErrandError.self) {
            _ = try await client(.httpbin, trust: trust).send(Request<Data>(path: "anything/\(marker)"))
        }
        #expect(try !ConnectivityServers.proxyLog("tinyproxy-open").contains(marker))
    }
}
#endif
