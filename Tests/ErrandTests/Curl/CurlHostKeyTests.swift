#if canImport(CCurl)
@testable import Errand
import Testing

/// How the curl transport names the server whose connection slots a hop asks for.
@Suite("Curl transport: server keys of admission")
struct CurlHostKeyTests {
    @Test(
        "a server's key is its scheme, host and port, however the URL spells them",
        arguments: [
            ("http://127.0.0.1:8080/a?b#c", "http://127.0.0.1:8080"),
            ("HTTPS://Example.COM/path", "https://example.com:443"),
            ("http://example.com", "http://example.com:80"),
            ("https://user:pa:ss@host.test:8443/x", "https://host.test:8443"),
            ("http://[::1]:9000/", "http://[::1]:9000"),
            ("https://[::1]/", "https://[::1]:443"),
            ("http://host?query", "http://host:80"),
        ])
    func hostKeys(url: String, key: String) {
        #expect(CurlHop.hostKey(ofURLText: url) == key)
    }
}
#endif
