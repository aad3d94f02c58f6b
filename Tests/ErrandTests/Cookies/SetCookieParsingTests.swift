@testable import Errand
import Foundation
import Testing

/// RFC 6265bis §5.6: how one `Set-Cookie` value is read, before any rule about the request applies.
@Suite("Set-Cookie parsing")
struct SetCookieParsingTests {
    let now = Date(timeIntervalSince1970: 1_700_000_000)

    @Test func theNameAndValueAreTrimmedAndTheAttributesReadCaseInsensitively() throws {
        let cookie = try #require(
            SetCookie(" sid = a b ;  PATH=/x ; DoMaIn=.Example.COM; secure; HTTPONLY; samesite=lax", now: now))
        #expect(cookie.name == "sid")
        #expect(cookie.value == "a b")
        #expect(cookie.path == "/x")
        #expect(cookie.domain == "example.com")
        #expect(cookie.isSecure && cookie.isHTTPOnly)
        #expect(cookie.sameSite == .lax)
    }

    @Test func aValueWithoutAnEqualsSignIsANamelessCookie() throws {
        let cookie = try #require(SetCookie("justavalue; Path=/", now: now))
        #expect(cookie.name.isEmpty)
        #expect(cookie.value == "justavalue")
        #expect(SetCookie("=; Path=/", now: now) == nil)
        #expect(SetCookie("   ", now: now) == nil)
    }

    @Test func theValueKeepsEverythingAfterTheFirstEqualsSign() throws {
        let cookie = try #require(SetCookie("token=a=b==; Path=/", now: now))
        #expect(cookie.name == "token")
        #expect(cookie.value == "a=b==")
    }

    @Test func aControlCharacterRefusesTheWholeField() {
        #expect(SetCookie("a=b\u{01}c", now: now) == nil)
        #expect(SetCookie("a=b; Path=/\u{7F}", now: now) == nil)
        #expect(SetCookie("a=b\tc", now: now)?.value == "b\tc")
    }

    @Test func nameAndValueTogetherMayHave4096BytesAndNoMore() {
        let name = "n"
        #expect(SetCookie(name + "=" + String(repeating: "v", count: 4095), now: now) != nil)
        #expect(SetCookie(name + "=" + String(repeating: "v", count: 4096), now: now) == nil)
    }

    @Test func anAttributeValueOver1024BytesIsIgnored() throws {
        let long = "/" + String(repeating: "p", count: 1024)
        #expect(try #require(SetCookie("a=b; Path=\(long)", now: now)).path == nil)
        let fits = "/" + String(repeating: "p", count: 1023)
        #expect(try #require(SetCookie("a=b; Path=\(fits)", now: now)).path == fits)
    }

    @Test func expiresIsReadByTheStrictHTTPDateParser() throws {
        let fixdate = try #require(SetCookie("a=b; Expires=Wed, 21 Oct 2026 07:28:00 GMT", now: now))
        #expect(fixdate.expires == Date(timeIntervalSince1970: 1_792_567_680))
        for loose in ["Wed, 21-Oct-2026 07:28:00 GMT", "21 Oct 2026 07:28:00", "Wed, 21 Oct 26 07:28:00 GMT", "soon"] {
            #expect(try #require(SetCookie("a=b; Expires=\(loose)", now: now)).expires == nil, "\(loose)")
        }
        let obsolete = try #require(SetCookie("a=b; Expires=Wednesday, 21-Oct-26 07:28:00 GMT", now: now))
        #expect(obsolete.expires == Date(timeIntervalSince1970: 1_792_567_680))
    }

    @Test func maxAgeIsAnOptionallyNegativeIntegerOrIgnored() throws {
        #expect(try #require(SetCookie("a=b; Max-Age=60", now: now)).maxAge == 60)
        #expect(try #require(SetCookie("a=b; Max-Age=-1", now: now)).maxAge == -1)
        #expect(try #require(SetCookie("a=b; Max-Age=0", now: now)).maxAge == 0)
        for bad in ["+60", "60s", "", "6 0", "1.5", "-"] {
            #expect(try #require(SetCookie("a=b; Max-Age=\(bad)", now: now)).maxAge == nil, "\(bad)")
        }
        #expect(try #require(SetCookie("a=b; Max-Age=99999999999999999999999", now: now)).maxAge == Int.max)
    }

    @Test func theLastOfARepeatedAttributeWins() throws {
        let cookie = try #require(SetCookie("a=b; Path=/one; Path=/two; Max-Age=5; Max-Age=9", now: now))
        #expect(cookie.path == "/two")
        #expect(cookie.maxAge == 9)
    }

    @Test func aPathThatDoesNotStartWithASlashIsIgnoredAndAnEmptyDomainIsKeptEmpty() throws {
        let cookie = try #require(SetCookie("a=b; Path=relative; Domain=", now: now))
        #expect(cookie.path == nil)
        // RFC 6265bis: the last Domain counts even when empty, and an empty one makes the cookie host-only.
        #expect(cookie.domain == "")
        #expect(try #require(SetCookie("a=b; Domain=example.com; Domain=.", now: now)).domain == "")
        #expect(try #require(SetCookie("a=b", now: now)).domain == nil)
    }

    @Test func aJoinedFieldSplitsAtCommasThatStartACookie() {
        let joined = "a=1; Expires=Wed, 21 Oct 2026 07:28:00 GMT; Path=/, b=2; HttpOnly,c=3"
        #expect(
            SetCookie.values(in: joined) == [
                "a=1; Expires=Wed, 21 Oct 2026 07:28:00 GMT; Path=/", "b=2; HttpOnly", "c=3",
            ])
        #expect(SetCookie.values(in: "list=x,y z; Path=/") == ["list=x,y z; Path=/"])
        #expect(SetCookie.values(in: "a=1, nameless") == ["a=1, nameless"])
    }

    @Test func anUnknownSameSiteValueIsNone() throws {
        #expect(try #require(SetCookie("a=b; SameSite=Sometimes", now: now)).sameSite == nil)
        #expect(try #require(SetCookie("a=b; SameSite=STRICT", now: now)).sameSite == .strict)
        #expect(try #require(SetCookie("a=b; SameSite=none", now: now)).sameSite == Cookie.SameSite.none)
    }
}
