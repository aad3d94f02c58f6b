@testable import Errand
import ErrandTesting
import Foundation
import Testing

/// RFC 6265bis §5.7 and §5.8.3 on a jar, without a wire: what is stored from which URL, and what goes back where.
/// Time is a manual clock.
@Suite("Cookie storage model")
struct CookieStorageModelTests {
    let clock = ManualClock()
    let jar: CookieJar

    init() {
        jar = CookieJar(publicSuffixes: PublicSuffixList(text: "com\nco.uk\n*.ck\n!www.ck\ngithub.io\n"), clock: clock)
    }

    func url(_ text: String) -> URL { URL(string: text)! }

    func names(for text: String) -> [String] { jar.cookies(for: url(text)).map(\.name) }

    // MARK: Domains

    @Test func aCookieWithoutDomainGoesToItsHostAlone() throws {
        try jar.receive(setCookie: "a=1", from: url("https://shop.example.com/"))
        #expect(names(for: "https://shop.example.com/") == ["a"])
        #expect(names(for: "https://sub.shop.example.com/").isEmpty)
        #expect(names(for: "https://example.com/").isEmpty)
        #expect(jar.cookies.first?.isHostOnly == true)
    }

    @Test func aDomainCookieGoesToTheDomainAndBelow() throws {
        try jar.receive(setCookie: "a=1; Domain=.Example.com", from: url("https://shop.example.com/"))
        #expect(names(for: "https://example.com/") == ["a"])
        #expect(names(for: "https://deep.shop.example.com/") == ["a"])
        #expect(names(for: "https://notexample.com/").isEmpty)
        #expect(jar.cookies.first?.domain == "example.com")
    }

    @Test func aDomainThatDoesNotContainTheHostIsRefused() {
        #expect(throws: CookieRejection.domainMismatch("other.com")) {
            try jar.receive(setCookie: "a=1; Domain=other.com", from: url("https://shop.example.com/"))
        }
        #expect(throws: CookieRejection.domainMismatch("deep.shop.example.com")) {
            try jar.receive(setCookie: "a=1; Domain=deep.shop.example.com", from: url("https://shop.example.com/"))
        }
    }

    @Test func anIPAddressHostTakesNoDomainButItself() throws {
        #expect(throws: CookieRejection.domainMismatch("0.1")) {
            try jar.receive(setCookie: "a=1; Domain=0.1", from: url("http://127.0.0.1/"))
        }
        try jar.receive(setCookie: "b=1; Domain=127.0.0.1", from: url("http://127.0.0.1/"))
        #expect(names(for: "http://127.0.0.1/") == ["b"])
    }

    @Test func aPublicSuffixIsRefusedAsADomainUnlessItIsTheHost() throws {
        #expect(throws: CookieRejection.publicSuffix("co.uk")) {
            try jar.receive(setCookie: "a=1; Domain=co.uk", from: url("https://shop.co.uk/"))
        }
        #expect(throws: CookieRejection.publicSuffix("anything.ck")) {
            try jar.receive(setCookie: "a=1; Domain=anything.ck", from: url("https://x.anything.ck/"))
        }
        try jar.receive(setCookie: "b=1; Domain=www.ck", from: url("https://a.www.ck/"))
        // A host that is itself a public suffix keeps its cookie, as a host-only one.
        try jar.receive(setCookie: "c=1; Domain=github.io", from: url("https://github.io/"))
        #expect(jar.cookies.first { $0.name == "c" }?.isHostOnly == true)
        #expect(names(for: "https://user.github.io/").isEmpty)
    }

    @Test func withoutAListOnlySingleLabelDomainsAreRefused() throws {
        let bare = CookieJar(publicSuffixes: .singleLabel, clock: clock)
        #expect(throws: CookieRejection.publicSuffix("com")) {
            try bare.receive(setCookie: "a=1; Domain=com", from: url("https://example.com/"))
        }
        try bare.receive(setCookie: "b=1; Domain=co.uk", from: url("https://shop.co.uk/"))
        #expect(bare.cookies(for: url("https://other.co.uk/")).map(\.name) == ["b"])
    }

    // MARK: Paths

    @Test func theDefaultPathIsTheRequestsDirectory() throws {
        try jar.receive(setCookie: "a=1", from: url("https://example.com/docs/page.html"))
        try jar.receive(setCookie: "b=1", from: url("https://example.com/top"))
        #expect(jar.cookies.first { $0.name == "a" }?.path == "/docs")
        #expect(jar.cookies.first { $0.name == "b" }?.path == "/")
        #expect(names(for: "https://example.com/docs").sorted() == ["a", "b"])
        #expect(names(for: "https://example.com/docs/x/y").sorted() == ["a", "b"])
        #expect(names(for: "https://example.com/docsearch") == ["b"])
    }

    @Test func longerPathsAreSentFirstThenOlderCookies() throws {
        try jar.receive(setCookie: "root=1; Path=/", from: url("https://example.com/"))
        clock.advance(by: .seconds(1))
        try jar.receive(setCookie: "deep=1; Path=/a/b", from: url("https://example.com/"))
        clock.advance(by: .seconds(1))
        try jar.receive(setCookie: "mid=1; Path=/a", from: url("https://example.com/"))
        clock.advance(by: .seconds(1))
        try jar.receive(setCookie: "late=1; Path=/", from: url("https://example.com/"))
        #expect(jar.headerValue(for: url("https://example.com/a/b/c")) == "deep=1; mid=1; root=1; late=1")
    }

    // MARK: Secure

    @Test func secureCookiesAreSetAndSentOnlyOverHTTPSOrToLoopback() throws {
        #expect(throws: CookieRejection.insecureOrigin) {
            try jar.receive(setCookie: "a=1; Secure", from: url("http://example.com/"))
        }
        try jar.receive(setCookie: "b=1; Secure", from: url("https://example.com/"))
        #expect(names(for: "https://example.com/") == ["b"])
        #expect(names(for: "http://example.com/").isEmpty)
        try jar.receive(setCookie: "c=1; Secure", from: url("http://127.0.0.1:8080/"))
        #expect(names(for: "http://127.0.0.1:9090/") == ["c"])
    }

    @Test func plainHTTPMayNotShadowASecureCookie() throws {
        try jar.receive(setCookie: "sid=secret; Secure; Path=/", from: url("https://example.com/"))
        #expect(throws: CookieRejection.shadowsSecureCookie("sid")) {
            try jar.receive(setCookie: "sid=forged; Path=/account", from: url("http://example.com/"))
        }
        try jar.receive(setCookie: "other=1", from: url("http://example.com/"))
        #expect(jar.cookies.first { $0.name == "sid" }?.value == "secret")
    }

    // MARK: Prefixes

    @Test func secureAndHostPrefixesKeepTheirPromises() throws {
        #expect(throws: CookieRejection.prefix("__Secure-a")) {
            try jar.receive(setCookie: "__Secure-a=1", from: url("https://example.com/"))
        }
        try jar.receive(setCookie: "__Secure-b=1; Secure; Domain=example.com", from: url("https://shop.example.com/"))
        for field in ["__Host-c=1; Secure; Domain=example.com", "__Host-c=1; Secure; Path=/x", "__Host-c=1; Path=/"] {
            #expect(throws: CookieRejection.prefix("__Host-c"), "\(field)") {
                try jar.receive(setCookie: field, from: url("https://example.com/"))
            }
        }
        try jar.receive(setCookie: "__Host-d=1; Secure; Path=/", from: url("https://example.com/"))
        #expect(throws: CookieRejection.prefix("__HOST-e")) {
            try jar.receive(setCookie: "__HOST-e=1; Path=/", from: url("https://example.com/"))
        }
        // A cookie without a name may not pass for a prefixed one.
        #expect(throws: CookieRejection.prefix("__Host-f")) {
            try jar.receive(setCookie: "__Host-f; Secure; Path=/", from: url("https://example.com/"))
        }
        #expect(jar.cookies.map(\.name).sorted() == ["__Host-d", "__Secure-b"])
    }

    // MARK: Lifetimes

    @Test func maxAgeWinsOverExpiresAndCountsOnTheJarsClock() throws {
        try jar.receive(
            setCookie: "a=1; Max-Age=60; Expires=Thu, 01 Jan 1970 00:00:01 GMT", from: url("https://e.com/"))
        clock.advance(by: .seconds(59))
        #expect(names(for: "https://e.com/") == ["a"])
        clock.advance(by: .seconds(1))
        #expect(names(for: "https://e.com/").isEmpty)
        #expect(jar.cookies.isEmpty)
    }

    @Test func aPastExpiryOrNonPositiveMaxAgeRemovesTheCookie() throws {
        try jar.receive(setCookie: "a=1", from: url("https://e.com/"))
        try jar.receive(setCookie: "b=1", from: url("https://e.com/"))
        try jar.receive(setCookie: "a=gone; Max-Age=0", from: url("https://e.com/"))
        try jar.receive(setCookie: "b=gone; Expires=Thu, 01 Jan 1970 00:00:01 GMT", from: url("https://e.com/"))
        #expect(jar.cookies.isEmpty)
    }

    @Test func noCookieLastsLongerThan400Days() throws {
        try jar.receive(setCookie: "a=1; Max-Age=999999999", from: url("https://e.com/"))
        try jar.receive(setCookie: "b=1; Expires=Fri, 31 Dec 9999 23:59:59 GMT", from: url("https://e.com/"))
        let now = jar.now
        for cookie in jar.cookies {
            let lifetime = try #require(cookie.expires).timeIntervalSince(now)
            #expect(abs(lifetime - 400 * 86_400) < 1, "\(cookie.name)")
        }
    }

    @Test func aSessionCookieHasNoExpiry() throws {
        try jar.receive(setCookie: "a=1; Expires=not a date", from: url("https://e.com/"))
        #expect(jar.cookies.first?.expires == nil)
        jar.removeSessionCookies()
        #expect(jar.cookies.isEmpty)
    }

    @Test func aReplacementKeepsTheFirstCreationTime() throws {
        try jar.receive(setCookie: "a=1", from: url("https://e.com/"))
        let created = try #require(jar.cookies.first).created
        clock.advance(by: .seconds(10))
        try jar.receive(setCookie: "a=2; HttpOnly; SameSite=Strict", from: url("https://e.com/"))
        let replaced = try #require(jar.cookies.first)
        #expect(jar.cookies.count == 1)
        #expect(replaced.value == "2" && replaced.isHTTPOnly && replaced.sameSite == .strict)
        #expect(replaced.created == created)
    }

    // MARK: Limits

    @Test func beyondTheDomainLimitTheLeastRecentlyUsedGoFirst() throws {
        let small = CookieJar(limits: .init(perDomain: 3, total: 10), publicSuffixes: .singleLabel, clock: clock)
        let site = url("https://e.com/")
        for name in ["a", "b", "c"] {
            try small.receive(setCookie: "\(name)=1; Path=/\(name)", from: site)
            clock.advance(by: .seconds(1))
        }
        _ = small.headerValueForSending(to: url("https://e.com/a"))
        clock.advance(by: .seconds(1))
        try small.receive(setCookie: "d=1", from: site)
        #expect(small.cookies.map(\.name).sorted() == ["a", "c", "d"])
    }

    @Test func beyondTheTotalTheLeastRecentlyUsedOfAnyDomainGo() throws {
        let small = CookieJar(limits: .init(perDomain: 5, total: 2), publicSuffixes: .singleLabel, clock: clock)
        for host in ["a.com", "b.com", "c.com"] {
            try small.receive(setCookie: "x=1", from: url("https://\(host)/"))
            clock.advance(by: .seconds(1))
        }
        #expect(small.cookies.map(\.domain) == ["b.com", "c.com"])
    }

    @Test func expiredCookiesAreEvictedBeforeLiveOnes() throws {
        let small = CookieJar(limits: .init(perDomain: 2, total: 10), publicSuffixes: .singleLabel, clock: clock)
        let site = url("https://e.com/")
        try small.receive(setCookie: "short=1; Max-Age=5", from: site)
        try small.receive(setCookie: "old=1", from: site)
        clock.advance(by: .seconds(6))
        try small.receive(setCookie: "new=1", from: site)
        #expect(small.cookies.map(\.name).sorted() == ["new", "old"])
    }

    // MARK: The caller's API

    @Test func aCallersCookieObeysTheRulesAServersDoes() throws {
        #expect(throws: CookieRejection.publicSuffix("co.uk")) {
            try jar.add(Cookie(name: "a", value: "1", domain: ".co.uk", isHostOnly: false))
        }
        #expect(throws: CookieRejection.malformed) {
            try jar.add(Cookie(name: "a", value: "x;y", domain: "e.com"))
        }
        #expect(throws: CookieRejection.prefix("__Host-a")) {
            try jar.add(Cookie(name: "__Host-a", value: "1", domain: "e.com", path: "/x", isSecure: true))
        }
        try jar.add(Cookie(name: "a", value: "1", domain: ".E.com", isHostOnly: false, path: "/"))
        #expect(names(for: "https://www.e.com/") == ["a"])
        jar.delete(try #require(jar.cookies.first))
        #expect(jar.cookies.isEmpty)
    }

    @Test func removeWhereAndRemoveAllEmptyTheJar() throws {
        try jar.receive(setCookie: "a=1", from: url("https://one.com/"))
        try jar.receive(setCookie: "b=1", from: url("https://two.com/"))
        jar.remove { $0.domain == "one.com" }
        #expect(jar.cookies.map(\.name) == ["b"])
        jar.removeAll()
        #expect(jar.cookies.isEmpty)
    }
}
