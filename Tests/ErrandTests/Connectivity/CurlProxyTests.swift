#if canImport(CCurl)
import Errand
import Foundation
import Testing
import TestSupport

/// CurlTransport through a real proxy: tinyproxy (Basic authentication) and the project's SOCKS5 server.
@Suite("Curl through a proxy", .enabled(if: ConnectivityServers.isUsable))
struct CurlProxyTests {
    struct HeadersAnswer: Decodable { var headers: [String: String] }

    func tinyproxy(user: String?, password: String?) throws -> ProxyServer {
        let credentials = user.map { ProxyCredentials(user: $0, password: password ?? "") }
        return try ProxyServer(parsing: "http://" + ConnectivityServers.proxyAddress()).with(credentials)
    }

    func client(_ server: TestServer, proxy: ProxySettings) throws -> APIClient {
        var configuration = CurlTransport.Configuration(caBundle: TestServer.certificateAuthority)
        configuration.proxy = proxy
        return APIClient(
            configuration: ClientConfiguration(
                baseURL: try server.url(), transport: CurlTransport(configuration: configuration)))
    }

    func authorized() throws -> ProxyServer {
        try tinyproxy(user: ConnectivityServers.proxyUser(), password: ConnectivityServers.proxyPassword())
    }

    @Test("plain http goes through the proxy, which consumes its own credentials")
    func plainHTTPThroughProxy() async throws {
        let client = try client(.httpbin, proxy: ProxySettings(proxy: authorized()))
        let marker = UUID().uuidString
        let answer = try await client.send(Request<HeadersAnswer>(path: "anything/\(marker)"))
        #expect(try ConnectivityServers.proxyLog().contains(marker))
        #expect(answer.value.headers["Proxy-Authorization"] == nil)
    }

    @Test("https goes through a CONNECT tunnel, the server's certificate still checked")
    func httpsThroughTunnel() async throws {
        let client = try client(.nginxHTTPS, proxy: ProxySettings(proxy: authorized()))
        let response = try await client.send(Request<Data>(path: "small.json"))
        #expect(response.status == 200)
        #expect(!response.value.isEmpty)
    }

    @Test("https to a proxy that wants credentials fails with a proxy error, no password in it")
    func tunnelWithoutCredentials() async throws {
        let wrong = try tinyproxy(user: ConnectivityServers.proxyUser(), password: "not-the-password")
        for (proxy, wording) in [(try tinyproxy(user: nil, password: nil), "asks for"), (wrong, "refused the user")] {
            let client = try client(.nginxHTTPS, proxy: ProxySettings(proxy: proxy))
            let error = await #expect(throws: ErrandError.self) {
                _ = try await client.send(Request<Data>(path: "small.json"))
            }
            guard case .transport(let failure) = error else {
                Issue.record("expected a transport failure, got \(String(describing: error))")
                continue
            }
            #expect(failure.kind == .proxy)
            #expect(failure.underlying.contains(try ConnectivityServers.proxyAddress()))
            #expect(failure.underlying.contains(wording))
            #expect(error?.userMessage.contains("proxy") == true)
            #expect(error.map { String(reflecting: $0) }?.contains("not-the-password") == false)
        }
    }

    @Test("plain http to a proxy that wants credentials fails with 407, worded for the user")
    func plainHTTPWithoutCredentials() async throws {
        let client = try client(.httpbin, proxy: ProxySettings(proxy: tinyproxy(user: nil, password: nil)))
        let error = await #expect(throws: ErrandError.self) {
            _ = try await client.send(Request<Data>(path: "get"))
        }
        #expect(error?.status == 407)
        #expect(error?.userMessage.contains("proxy") == true)
    }

    @Test("a NO_PROXY entry sends the request directly: even a refusing proxy is never asked")
    func bypassGoesDirect() async throws {
        let refusing = try tinyproxy(user: nil, password: nil)
        let client = try client(.httpbin, proxy: ProxySettings(proxy: refusing, bypass: "example.com, 127.0.0.1"))
        let marker = UUID().uuidString
        #expect(try await client.send(Request<Data>(path: "anything/\(marker)")).status == 200)
        #expect(try !ConnectivityServers.proxyLog().contains(marker))
    }

    @Test("the environment's proxy is used when the configuration asks for it")
    func environmentProxy() async throws {
        let user = try ConnectivityServers.proxyUser()
        let password = try ConnectivityServers.proxyPassword()
        let settings = try ProxySettings.environment([
            "http_proxy": "http://\(user):\(password)@\(try ConnectivityServers.proxyAddress())"
        ])
        let marker = UUID().uuidString
        let response = try await client(.httpbin, proxy: settings).send(Request<Data>(path: "anything/\(marker)"))
        #expect(response.status == 200)
        #expect(try ConnectivityServers.proxyLog().contains(marker))
    }

    @Test("SOCKS5: socks5 resolves the name itself, socks5h leaves it to the proxy")
    func socks() async throws {
        let address = try ConnectivityServers.socksAddress()
        let port = try #require(TestServer.nginxHTTP.url().port)
        let local = try #require(URL(string: "http://localhost:\(port)"))
        for (kind, proxyResolves) in [(ProxyServer.Kind.socks5, false), (.socks5h, true)] {
            var configuration = CurlTransport.Configuration()
            configuration.proxy = ProxySettings(proxy: try ProxyServer(parsing: "\(kind.rawValue)://\(address)"))
            let client = APIClient(
                configuration: ClientConfiguration(
                    baseURL: local, transport: CurlTransport(configuration: configuration)))
            let before = try ConnectivityServers.socksLog().count
            let response = try await client.send(Request<Data>(path: "small.json"))
            #expect(response.status == 200)
            let tunnels = try ConnectivityServers.socksLog().dropFirst(before)
            let named = tunnels.filter { $0["port"] == "\(port)" }
            #expect(!named.isEmpty)
            #expect(named.allSatisfy { ($0["type"] == "domain") == proxyResolves })
        }
    }
}

extension ProxyServer {
    fileprivate func with(_ credentials: ProxyCredentials?) -> ProxyServer {
        var copy = self
        copy.credentials = credentials
        return copy
    }
}
#endif
