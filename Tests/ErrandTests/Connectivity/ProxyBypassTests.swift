import Errand
import Testing

/// `NO_PROXY` matching, checked against what curl 7.88's own matcher decides for the same host and list.
@Suite("NO_PROXY matching")
struct ProxyBypassTests {
    struct Case: Sendable, CustomTestStringConvertible {
        let host: String
        let list: String
        let bypassed: Bool
        var testDescription: String { "\(host) in \"\(list)\": \(bypassed)" }
    }

    static let cases: [Case] = [
        Case(host: "www.example.com", list: "foo, .example.com", bypassed: true),
        Case(host: "www.example.com", list: "www2.example.com, .example.net", bypassed: false),
        Case(host: "example.com", list: ".example.com, .example.net", bypassed: true),
        Case(host: "nonexample.com", list: ".example.com, .example.net", bypassed: false),
        Case(host: "api.example.com", list: "example.com", bypassed: true),
        Case(host: "badexample.com", list: "example.com", bypassed: false),
        Case(host: "BAr", list: "foo,,,,,              bar, ::1/64", bypassed: true),
        Case(host: "Example.COM.", list: "example.com", bypassed: true),
        Case(host: "anything.at.all", list: "*", bypassed: true),
        Case(host: "example.com", list: "*.example.com", bypassed: false),
        Case(host: "example.com", list: "", bypassed: false),
        Case(host: "192.168.0.1", list: "192.168.0.1", bypassed: true),
        Case(host: "192.168.0.1", list: "192.168.0.0", bypassed: false),
        Case(host: "192.168.1.1", list: "foo, bar, 192.168.0.0/24", bypassed: false),
        Case(host: "192.168.1.1", list: "foo, bar, 192.168.0.0/16", bypassed: true),
        Case(host: "10.1.2.3", list: "10.0.0.0/8", bypassed: true),
        Case(host: "10.1.2.3", list: "10.0.0.0/33", bypassed: false),
        Case(host: "10.1.2.3", list: "10.0.0.0/0", bypassed: false),
        Case(host: "::1", list: "foo, bar, 192.168.0.0/16", bypassed: false),
        Case(host: "[::1]", list: "foo, bar, ::1/64", bypassed: true),
        Case(host: "::1", list: "::1/129", bypassed: false),
        Case(host: "fd00::5", list: "fd00::/8", bypassed: true),
        // An address entry never matches a name, nor a name entry an address.
        Case(host: "localhost", list: "127.0.0.1", bypassed: false),
        Case(host: "127.0.0.1", list: "localhost", bypassed: false),
        // curl supports no ports in entries.
        Case(host: "example.com", list: "example.com:443", bypassed: false),
    ]

    @Test("matches as curl does", arguments: cases)
    func matchesAsCurl(_ example: Case) {
        #expect(ProxyBypass(example.list).matches(host: example.host) == example.bypassed)
    }

    @Test func listsReadBackAsWritten() {
        #expect(ProxyBypass("a.com, b.com,,c.com").entries == ["a.com", "b.com", "c.com"])
        #expect(ProxyBypass(entries: ["a.com", "b.com"]).description == "a.com,b.com")
    }
}
