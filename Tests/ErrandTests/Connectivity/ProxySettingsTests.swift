import Errand
import Foundation
import Testing

@Suite("Proxy settings")
struct ProxySettingsTests {
    @Test func parsesProxyURLs() throws {
        let plain = try ProxyServer(parsing: "proxy.corp:3128")
        #expect(plain == ProxyServer(.http, host: "proxy.corp", port: 3128))
        #expect(try ProxyServer(parsing: "socks5h://127.0.0.1").port == 1080)
        #expect(try ProxyServer(parsing: "https://proxy.corp").port == 443)
        #expect(try ProxyServer(parsing: "http://[::1]:8080").host == "::1")
        let secret = try ProxyServer(parsing: "http://user%40corp:pa%3Ass@proxy:8080")
        #expect(secret.credentials == ProxyCredentials(user: "user@corp", password: "pa:ss"))
    }

    @Test func refusesWhatIsNoProxy() {
        #expect(throws: ErrandError.self) { try ProxyServer(parsing: "ftp://proxy:21") }
        #expect(throws: ErrandError.self) { try ProxyServer(parsing: "http://:8080") }
        #expect(throws: ErrandError.self) { try ProxyServer(parsing: "http://proxy:99999") }
    }

    @Test("a password never shows: description, dump, parse errors")
    func passwordsStayHidden() throws {
        let server = try ProxyServer(parsing: "http://me:hunter2@proxy:8080")
        #expect(server.description == "http://me:***@proxy:8080")
        #expect(!String(describing: ProxySettings(proxy: server)).contains("hunter2"))
        #expect(!String(reflecting: server).contains("hunter2"))
        var dumped = ""
        dump(server, to: &dumped)
        #expect(!dumped.contains("hunter2"))
        do {
            _ = try ProxyServer(parsing: "gopher://me:hunter2@proxy:70")
            Issue.record("a gopher proxy was accepted")
        } catch {
            #expect(!error.description.contains("hunter2"))
            #expect(error.description.contains("gopher://***@proxy:70"))
        }
    }

    @Test("the environment is read by curl's rules")
    func readsTheEnvironment() throws {
        let settings = try ProxySettings.environment([
            "http_proxy": "http://web:3128", "HTTPS_PROXY": "tls:3129", "NO_PROXY": "localhost,.internal",
        ])
        #expect(settings.http?.host == "web")
        #expect(settings.https?.host == "tls")
        #expect(settings.proxy(for: URL(string: "https://api.internal/x")!) == nil)
        #expect(settings.proxy(for: URL(string: "https://localhost:8443/")!) == nil)
        #expect(settings.proxy(for: URL(string: "https://example.com/")!)?.host == "tls")
        #expect(settings.proxy(for: URL(string: "http://example.com/")!)?.host == "web")
    }

    @Test("upper-case HTTP_PROXY is ignored (httpoxy); ALL_PROXY is the fallback; lower case wins")
    func environmentPrecedence() throws {
        let settings = try ProxySettings.environment([
            "HTTP_PROXY": "http://injected:1", "ALL_PROXY": "socks5h://all:1080", "https_proxy": "lower:1",
            "HTTPS_PROXY": "upper:1", "no_proxy": "", "NO_PROXY": "example.com",
        ])
        #expect(settings.http?.host == "all")
        #expect(settings.http?.kind == .socks5h)
        #expect(settings.https?.host == "lower")
        // An empty no_proxy counts as unset, so NO_PROXY applies.
        #expect(settings.bypass.entries == ["example.com"])
        #expect(try ProxySettings.environment([:]) == .direct)
    }

    @Test func otherSchemesNeverGoThroughAProxy() throws {
        let settings = ProxySettings(proxy: ProxyServer(host: "proxy", port: 1))
        #expect(settings.proxy(for: URL(string: "ws://example.com/")!) == nil)
        #expect(ProxySettings.direct.description == "direct")
        #expect(
            ProxySettings(proxy: ProxyServer(host: "p", port: 1), bypass: "a.com").description
                == "http via http://p:1, https via http://p:1, no proxy for a.com")
    }
}
