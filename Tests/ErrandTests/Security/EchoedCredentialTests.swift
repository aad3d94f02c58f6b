import Errand
import Foundation
import Testing

/// Input echoed in a message (a proxy that did not parse, an argument, a URL quoted in an error) never shows what
/// could be its user name or password, however the credentials are written.
@Suite("Security: no credentials in echoed input")
struct EchoedCredentialTests {
    /// Inputs holding the user `alice-9917` and a password made of `PRO`, `SECRET` and `4410`, and what the echo
    /// must keep.
    static let forms: [(input: String, echo: String)] = [
        ("alice-9917:PRO://SECRET-4410@proxy.test:3128", "***@proxy.test:3128"),
        ("http://alice-9917:PRO-SECRET-4410@proxy.test:3128", "http://***@proxy.test:3128"),
        ("socks5h://alice-9917:PRO@SECRET-4410@proxy.test:1080", "socks5h://***@proxy.test:1080"),
        ("alice-9917:PRO/SECRET-4410@proxy.test:3128", "***@proxy.test:3128"),
        ("http://alice-9917:PRO/SECRET-4410@proxy.test/path?q=a@b", "http://***@proxy.test/path?q=a@b"),
        ("alice-9917%3APRO%2FSECRET-4410%40proxy.test:3128", "***%40proxy.test:3128"),
        ("http://alice-9917:PRO%40SECRET-4410@proxy.test", "http://***@proxy.test"),
        ("//alice-9917:PRO-SECRET-4410@proxy.test", "//***@proxy.test"),
        ("alice-9917@proxy.test", "***@proxy.test"),
        ("ftp://alice-9917:PRO SECRET-4410@proxy.test", "ftp://***@proxy.test"),
    ]

    static let parts = ["alice-9917", "PRO", "SECRET", "4410"]

    @Test("maskingCredentials(in:) hides the user information of every form", arguments: forms)
    func masking(_ input: String, echo: String) {
        let masked = Redaction.maskingCredentials(in: input)
        #expect(masked == echo)
        for part in Self.parts { #expect(!masked.contains(part), "\(part) in \(masked)") }
    }

    @Test("text without credentials is echoed as it was")
    func plainInputStays() {
        for input in ["https://example.com/v1/search?q=tea", "127.0.0.1:3128", "pasta", "", "@"] {
            #expect(Redaction.maskingCredentials(in: input) == input)
        }
    }

    @Test("a proxy that does not parse is echoed without its credentials, in whatever form")
    func proxyParsing() {
        let failing = [
            "alice-9917:PRO://SECRET-4410@proxy.test:3128", "gopher://alice-9917:PRO-SECRET-4410@proxy.test:70",
            "http://alice-9917:PRO-SECRET-4410@proxy.test:99999", "//alice-9917:PRO-SECRET-4410@proxy.test:3128",
            "ftp://alice-9917:PRO%40SECRET-4410@proxy.test:21",
        ]
        for input in failing {
            let error = #expect(throws: ErrandError.self) { try ProxyServer(parsing: input) }
            let texts = [error?.debugDescription ?? "", error?.userMessage ?? "", String(reflecting: error)]
            #expect(texts[0].contains("proxy.test"), "the echo still names the proxy: \(texts[0])")
            for text in texts {
                for part in Self.parts { #expect(!text.contains(part), "\(part) in \(text)") }
            }
            let environment = #expect(throws: ErrandError.self) {
                try ProxySettings.environment(["http_proxy": input])
            }
            for part in Self.parts { #expect(environment?.debugDescription.contains(part) == false) }
        }
    }

    @Test("a password holding :// parses when percent-encoded, and its description hides it")
    func schemeLessProxy() throws {
        let proxy = try ProxyServer(parsing: "alice:PRO%3A%2F%2FSECRET@proxy.test:3128")
        #expect(proxy.kind == .http)
        #expect(proxy.host == "proxy.test")
        #expect(proxy.credentials == ProxyCredentials(user: "alice", password: "PRO://SECRET"))
        #expect(!proxy.description.contains("SECRET"))
    }

    @Test("a URL quoted in free text loses its user and password; other text and URLs stay")
    func freeText() {
        let rules = Redaction()
        let text = "https://alice-9917:PRO-SECRET-4410@api.test/v1 is not a valid URL; see https://example.com/@me"
        let masked = rules.redact(text: text)
        #expect(masked == "https://***@api.test/v1 is not a valid URL; see https://example.com/@me")
    }
}
