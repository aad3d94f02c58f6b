import Foundation
import Testing

@testable import Errand

@Suite("One server identity")
struct ServerIdentityTests {
    @Test(
        "a server is its scheme, host and port, however the URL spells them",
        arguments: [
            ("http://127.0.0.1:8080/a?b#c", "http://127.0.0.1:8080"),
            ("HTTPS://Example.COM/path", "https://example.com:443"),
            ("http://example.com", "http://example.com:80"),
            ("https://user:pa:ss@host.test:8443/x", "https://host.test:8443"),
            ("http://[::1]:9000/", "http://[::1]:9000"),
            ("https://[::1]/", "https://[::1]:443"),
            ("http://host?query", "http://host:80"),
            ("https://Bücher.example/x", "https://xn--bcher-kva.example:443"),
            ("wss://socket.example/chat", "wss://socket.example:443"),
        ])
    func identities(url: String, expected: String) throws {
        let parsed = try #require(URL(string: url))
        #expect(ServerIdentity(parsed)?.description == expected)
        // The transports read it from the URL's text, without parsing the rest: the same answer.
        #expect(ServerIdentity(urlText: parsed.absoluteString)?.description == expected)
    }

    @Test("the default port is the same server as no port; another scheme or port is another server")
    func sameServer() throws {
        func identity(_ text: String) throws -> ServerIdentity? { ServerIdentity(try #require(URL(string: text))) }
        #expect(try identity("https://api.example.com/a") == identity("https://API.example.com:443/b"))
        #expect(try identity("http://api.example.com/a") != identity("https://api.example.com/a"))
        #expect(try identity("https://api.example.com/a") != identity("https://api.example.com:8443/a"))
        #expect(try identity("https://b%C3%BCcher.example/") == identity("https://xn--bcher-kva.example/"))
    }

    @Test(
        "a URL without a host has no server, nor text that is no absolute URL",
        arguments: [
            "file:///etc/hostname", "data:text/plain,hi", "/relative", "443/a/../://EXAMPLE.com:44:9",
            "1http://host/", "http://a:b:80/",
        ])
    func noServer(text: String) {
        #expect(ServerIdentity(urlText: text) == nil)
        // The cache key of such text is the text itself, and so stays the same when keyed again.
        if let url = URL(string: text) {
            #expect(CacheKey.primary(URL(string: CacheKey.primary(url)) ?? url) == CacheKey.primary(url))
        }
    }

    @Test("the origin leaves out the default port, as the cache key does")
    func origin() throws {
        #expect(ServerIdentity(try #require(URL(string: "HTTPS://Example.com:443/x")))?.origin == "https://example.com")
        #expect(
            ServerIdentity(try #require(URL(string: "http://example.com:8080/x")))?.origin == "http://example.com:8080")
        #expect(
            CacheKey.primary(try #require(URL(string: "HTTPS://Example.com:443/x?q=1#frag")))
                == "https://example.com/x?q=1")
        #expect(CacheKey.primary(try #require(URL(string: "https://u:p@example.com?q"))) == "https://example.com/?q")
    }

    @Test("the cache key's shortcut for URLs already in canonical form gives the key the long way gives")
    func cacheKeyShortcut() throws {
        let schemes = ["http", "https", "HTTP", "Https", "ws", "ftp"]
        let hosts = [
            "example.com", "Example.COM", "a-b.example", "127.0.0.1", "[::1]", "u:p@example.com", "b\u{FC}cher.de",
            "xn--bcher-kva.de", "ex%41mple.com",
        ]
        let ports = ["", ":", ":80", ":443", ":0080", ":8080", ":0", ":65535", ":65536", ":123456"]
        let rests = ["", "/", "/a/b?q=1", "?q=A%20B", "#frag", "/x#y", "/%2F?a=/b"]
        var checked = 0
        for scheme in schemes {
            for host in hosts {
                for port in ports {
                    for rest in rests {
                        guard let url = URL(string: "\(scheme)://\(host)\(port)\(rest)") else { continue }
                        #expect(
                            CacheKey.primary(url) == CacheKey.primaryTheLongWay(url.absoluteString),
                            "\(url.absoluteString)")
                        checked += 1
                    }
                }
            }
        }
        #expect(checked > 1_000)
    }

    @Test("admission, the rate limiter, redirects and the cache agree on the same server")
    func everyoneAgrees() throws {
        let first = try #require(URL(string: "https://Api.Example.com/a"))
        let second = try #require(URL(string: "https://api.example.com:443/b"))
        #expect(RedirectPolicy.sameServer(first, second))
        let limiters = PerHostLimiters(rate: 1, burst: 1)
        #expect(
            limiters.limiter(for: TransportRequest(url: first), clock: ContinuousClock())
                === limiters.limiter(for: TransportRequest(url: second), clock: ContinuousClock()))
        #expect(
            CacheKey.primary(first).hasPrefix(try #require(ServerIdentity(second)).origin))
    }
}
