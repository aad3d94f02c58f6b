@testable import Errand
import ErrandTesting
import Foundation
import Testing

/// One canonical form for hosts and `Domain` values before every check: case, IDNA, a trailing dot (an absolute
/// name, which the public suffix list reads through), and IP addresses, which take cookies for themselves alone.
@Suite("Cookie domains, canonical")
struct CookieDomainCanonicalTests {
    let clock = ManualClock()
    let jar: CookieJar

    init() {
        jar = CookieJar(publicSuffixes: PublicSuffixList(text: "com\nco.uk\nuk\n"), clock: clock)
    }

    func url(_ text: String) -> URL { URL(string: text)! }

    /// One response's `Set-Cookie` fields, each on its own line as the wire carries them.
    func fields(_ values: [String]) -> HTTPHeaders { HTTPHeaders(values.map { .init(name: "Set-Cookie", value: $0) }) }

    @Test(arguments: [
        ("http://evil.com./", "Domain=com.", "com."), ("http://evil.com./", "Domain=.COM.", "com."),
        ("http://evil.com/", "Domain=com.", "com."), ("http://shop.co.uk./", "Domain=co.uk.", "co.uk."),
        ("http://shop.co.uk./", "Domain=CO.UK.", "co.uk."),
    ])
    func aPublicSuffixWithATrailingDotIsStillAPublicSuffix(origin: String, attribute: String, domain: String) {
        #expect(throws: CookieRejection.publicSuffix(domain)) {
            try jar.receive(setCookie: "sid=stolen; \(attribute)", from: url(origin))
        }
        #expect(jar.cookies.isEmpty)
    }

    @Test func aCookieFromEvilComDotNeverReachesBankComDot() throws {
        try jar.receive(setCookie: "host=1", from: url("http://evil.com./"))
        _ = try? jar.receive(setCookie: "wide=1; Domain=com.", from: url("http://evil.com./"))
        _ = try? jar.receive(setCookie: "wide2=1; Domain=com", from: url("http://evil.com./"))
        #expect(jar.cookies(for: url("http://bank.com./")).isEmpty)
        #expect(jar.cookies(for: url("http://bank.com/")).isEmpty)
        #expect(jar.cookies(for: url("http://evil.com./")).map(\.name) == ["host"])
    }

    @Test func anAbsoluteDomainCoversTheAbsoluteNamesBelowIt() throws {
        try jar.receive(setCookie: "a=1; Domain=Example.COM.", from: url("http://www.example.com./"))
        #expect(jar.cookies.first?.domain == "example.com.")
        #expect(jar.cookies(for: url("http://other.example.com./")).map(\.name) == ["a"])
        // `example.com.` and `example.com` are different strings, so different hosts (RFC 6265bis §5.1.3).
        #expect(jar.cookies(for: url("http://other.example.com/")).isEmpty)
    }

    @Test(arguments: ["Domain=www.example.com.", "Domain=example.com..", "Domain=..example.com", "Domain=a..com"])
    func aDomainWithAnEmptyOrExtraLabelMatchesNoRelativeHost(attribute: String) {
        #expect(throws: CookieRejection.self) {
            try jar.receive(setCookie: "a=1; \(attribute)", from: url("http://www.example.com/"))
        }
    }

    @Test func internationalDomainsCompareInTheirASCIIForm() throws {
        try jar.receive(setCookie: "a=1; Domain=BÜCHER.example", from: url("http://shop.xn--bcher-kva.example/"))
        #expect(jar.cookies.first?.domain == "xn--bcher-kva.example")
        #expect(jar.cookies(for: url("http://xn--bcher-kva.example/")).map(\.name) == ["a"])
    }

    // MARK: IP addresses

    @Test func anIPv4HostMakesEveryCookieHostOnly() throws {
        try jar.receive(setCookie: "a=1; Domain=127.0.0.1", from: url("http://127.0.0.1/"))
        let cookie = try #require(jar.cookies.first)
        #expect(cookie.isHostOnly && cookie.domain == "127.0.0.1")
        #expect(jar.cookies(for: url("http://127.0.0.1/")).map(\.name) == ["a"])
        #expect(jar.cookies(for: url("http://1.127.0.0.1/")).isEmpty)
        #expect(jar.cookies(for: url("http://x.127.0.0.1/")).isEmpty)
    }

    @Test func anIPv6HostMakesEveryCookieHostOnly() throws {
        try jar.receive(setCookie: "a=1; Domain=[::1]", from: url("http://[::1]:8080/"))
        try jar.receive(setCookie: "b=1; Domain=::1", from: url("http://[::1]:8080/"))
        #expect(jar.cookies.allSatisfy { $0.isHostOnly && $0.domain == "::1" })
        #expect(jar.cookies(for: url("http://[::1]/")).map(\.name) == ["a", "b"])
        #expect(throws: CookieRejection.domainMismatch("1")) {
            try jar.receive(setCookie: "c=1; Domain=1", from: url("http://[::1]/"))
        }
    }

    @Test(arguments: ["http://127.1/", "http://0x7f.0.0.1/", "http://2130706433/"])
    func aHostEndingInANumberIsAnAddress(origin: String) throws {
        let host = try #require(URL(string: origin)?.host())
        try jar.receive(setCookie: "a=1; Domain=\(host)", from: url(origin))
        #expect(jar.cookies.first?.isHostOnly == true)
        #expect(jar.cookies(for: url("http://9.\(host)/")).isEmpty)
    }

    @Test func aHostPrefixedCookieWithADomainIsRefusedEvenFromAnAddress() {
        // The address would make it host-only, but `__Host-` promises that no Domain attribute was given.
        #expect(throws: CookieRejection.prefix("__Host-a")) {
            try jar.receive(setCookie: "__Host-a=1; Secure; Path=/; Domain=127.0.0.1", from: url("http://127.0.0.1/"))
        }
        #expect(throws: CookieRejection.prefix("__Host-b")) {
            try jar.add(
                Cookie(name: "__Host-b", value: "1", domain: "127.0.0.1", isHostOnly: false, isSecure: true))
        }
        #expect(jar.cookies.isEmpty)
    }

    @Test func aCallersCookieForAnAddressIsHostOnly() throws {
        try jar.add(Cookie(name: "a", value: "1", domain: "127.0.0.1", isHostOnly: false))
        #expect(jar.cookies.first?.isHostOnly == true)
        #expect(jar.cookies(for: url("http://1.127.0.0.1/")).isEmpty)
        #expect(throws: CookieRejection.publicSuffix("co.uk.")) {
            try jar.add(Cookie(name: "b", value: "1", domain: ".co.uk.", isHostOnly: false))
        }
    }

    // MARK: Creation order

    @Test func cookiesOfOneResponseAreSentInTheOrderTheyWereSet() throws {
        let names = ["zulu", "alpha", "mike", "bravo", "alpha2", "yankee"]
        jar.receive(fields(names.map { "\($0)=1; Path=/" }), from: url("http://e.com/"))
        #expect(jar.cookies(for: url("http://e.com/")).map(\.name) == names)
        let created = jar.cookies(for: url("http://e.com/")).map(\.created)
        #expect(zip(created, created.dropFirst()).allSatisfy { $0 < $1 })
    }

    @Test func cookiesOfOneNameAreSentInTheOrderTheyWereSetWhateverTheirDomain() throws {
        // Same name, same path length, one response: only the order of setting tells them apart.
        for _ in 0..<5 {
            let jar = CookieJar(publicSuffixes: .singleLabel, clock: clock)
            jar.receive(fields(["k=host; Path=/", "k=wide; Domain=e.org; Path=/"]), from: url("http://www.e.org/"))
            jar.receive(fields(["k=wider; Domain=www.e.org; Path=/"]), from: url("http://www.e.org/"))
            #expect(jar.headerValue(for: url("http://www.e.org/")) == "k=host; k=wide; k=wider")
        }
    }

    @Test func theOrderSurvivesReopeningTheFile() throws {
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("errand-order-\(UUID()).sqlite")
        defer { SQLiteFile.remove(at: file.path) }
        let timeline = Timeline(clock)
        let names = ["zulu", "alpha", "mike"]
        do {
            let jar = try CookieJar(fileURL: file, limits: .init(), publicSuffixes: .singleLabel, timeline: timeline)
            jar.receive(fields(names.map { "\($0)=1; Path=/; Max-Age=60" }), from: url("http://e.com/"))
        }
        let reopened = try CookieJar(fileURL: file, limits: .init(), publicSuffixes: .singleLabel, timeline: timeline)
        #expect(reopened.cookies(for: url("http://e.com/")).map(\.name) == names)
        reopened.receive(fields(["after=1; Path=/"]), from: url("http://e.com/"))
        #expect(reopened.cookies(for: url("http://e.com/")).map(\.name) == names + ["after"])
    }
}
