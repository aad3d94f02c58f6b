import Errand
import Foundation

/// The Netscape cookie-file reader's promises on arbitrary text, through the jar's public API only:
/// - importing never traps, and a file it refuses leaves the jar as it was (empty here);
/// - what it imports it exports, and the export imports again whole, to the same cookies and the same file;
/// - every cookie it imports is one a request may carry: no CR, LF or NUL in what reaches the `Cookie` field.
enum CookieFileChecks {
    /// A short public-suffix list, read once: enough for the suffix rules to refuse cookies.
    private static let suffixes = PublicSuffixList(text: "com\nuk\nco.uk\n*.ck\n!www.ck\nlocalhost\n")

    static func check(_ input: FuzzInput) -> Violations {
        let jar = CookieJar(publicSuffixes: suffixes, clock: FrozenClock())
        let imported: Int
        do {
            imported = try jar.importNetscapeFile(input.text)
        } catch {
            return jar.cookies.isEmpty ? [] : ["a refused file (\(error)) left \(jar.cookies.count) cookies in the jar"]
        }
        var violations: Violations = []
        let cookies = jar.cookies
        if cookies.count > imported {
            violations.append("the import reported \(imported) cookies, the jar holds \(cookies.count)")
        }
        for cookie in cookies {
            violations += wireViolations(cookie, in: jar)
        }
        let exported = jar.netscapeFile()
        let again = CookieJar(publicSuffixes: suffixes, clock: FrozenClock())
        do {
            try again.importNetscapeFile(exported)
        } catch {
            return violations + [
                "the jar's own export is refused by its import: \(error); the file: \(exported.debugDescription)"
            ]
        }
        // A cookie expiring within a minute of now may expire between the two jars: left out of the comparison.
        let settled = Date().addingTimeInterval(60)
        let before = cookies.filter { ($0.expires ?? .distantFuture) > settled }.map(Fields.init)
        let after = again.cookies.filter { ($0.expires ?? .distantFuture) > settled }.map(Fields.init)
        if before != after {
            violations.append("export and import changed the cookies: \(before) became \(after)")
        } else if before.count == cookies.count, again.netscapeFile() != exported {
            violations.append("a second export differs from the first: \(exported.debugDescription)")
        }
        return violations
    }

    /// What a request to the cookie's own URL would carry passes the header rules a request is held to.
    private static func wireViolations(_ cookie: Cookie, in jar: CookieJar) -> Violations {
        var violations: Violations = []
        for (part, text) in [("name", cookie.name), ("value", cookie.value), ("domain", cookie.domain)]
        where HeaderRules.breaksALine(text) {
            violations.append("an imported cookie's \(part) holds CR, LF or NUL: \(text.debugDescription)")
        }
        var components = URLComponents()
        components.scheme = "https"
        components.host = cookie.domain
        components.path = cookie.path.hasPrefix("/") ? cookie.path : "/"
        if let url = components.url, let value = jar.headerValue(for: url), HeaderRules.breaksALine(value) {
            violations.append("the Cookie field for \(url) holds CR, LF or NUL: \(value.debugDescription)")
        }
        return violations
    }

    /// The fields the Netscape format carries, expiry in whole seconds.
    private struct Fields: Equatable, CustomStringConvertible {
        var name, value, domain, path: String
        var isHostOnly, isSecure, isHTTPOnly: Bool
        var expires: Double?

        init(_ cookie: Cookie) {
            name = cookie.name
            value = cookie.value
            domain = cookie.domain
            path = cookie.path
            isHostOnly = cookie.isHostOnly
            isSecure = cookie.isSecure
            isHTTPOnly = cookie.isHTTPOnly
            expires = cookie.expires.map { $0.timeIntervalSince1970.rounded(.down) }
        }

        var description: String {
            "\(name)=\(value.debugDescription) \(domain)\(path) \(expires.map { String($0) } ?? "session")"
        }
    }
}

/// The rules a request's header fields are held to before anything is sent (the client's header-injection check):
/// a name is an RFC 9110 token, a value holds no CR, LF or NUL.
enum HeaderRules {
    /// Whether the text would break a header line: it holds CR, LF or NUL.
    static func breaksALine(_ text: String) -> Bool {
        text.utf8.contains { $0 == 0x0D || $0 == 0x0A || $0 == 0x00 }
    }

    /// Whether the text is an RFC 9110 token (a field name).
    static func isToken(_ text: String) -> Bool {
        !text.isEmpty
            && text.utf8.allSatisfy { byte in
                switch byte {
                case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"),
                    UInt8(ascii: "0")...UInt8(ascii: "9"):
                    true
                default: "!#$%&'*+-.^_`|~".utf8.contains(byte)
                }
            }
    }
}

/// A clock that never moves: a jar on it reads one date, so one input always meets the same expiry rules.
struct FrozenClock: Clock {
    let now = ContinuousClock.now
    var minimumResolution: Duration { .zero }

    func sleep(until deadline: ContinuousClock.Instant, tolerance: Duration?) async throws {}
}
