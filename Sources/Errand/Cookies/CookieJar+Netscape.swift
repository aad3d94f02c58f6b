import Foundation

/// The Netscape cookie-file format that curl (`-c`/`-b`), wget and browsers' exporters read and write: one cookie a
/// line, seven tab-separated fields — domain, whether subdomains match (`TRUE`/`FALSE`), path, secure
/// (`TRUE`/`FALSE`), expiry in seconds since 1970 (`0` for a session cookie), name, value. `#` starts a comment,
/// except `#HttpOnly_` before a domain, which marks an `HttpOnly` cookie. The format has no place for `SameSite`.
extension CookieJar {
    /// The jar's cookies in the Netscape format, domain cookies with a leading dot, session cookies with expiry 0.
    ///
    /// A cookie the format cannot hold is left out: a tab in its name, value or path (legal in `Set-Cookie`) would
    /// split its line into more than seven fields. ``exportNetscapeFile()`` says which.
    public func netscapeFile() -> String {
        exportNetscapeFile().text
    }

    /// The jar's cookies in the Netscape format, and the cookies left out because the format cannot hold them (a tab
    /// in the name, value or path). ``importNetscapeFile(_:)`` reads back every cookie written, with its name,
    /// value, domain, path, flags and expiry to the second.
    public func exportNetscapeFile() -> NetscapeCookieExport {
        var text = "# Netscape HTTP Cookie File\n# Written by Errand; every line is domain, subdomains, path, secure, "
        text += "expiry, name, value.\n\n"
        var skipped: [Cookie] = []
        for cookie in cookies {
            guard !(cookie.name + cookie.value + cookie.path).utf8.contains(UInt8(ascii: "\t")) else {
                skipped.append(cookie)
                continue
            }
            let domain = (cookie.isHTTPOnly ? "#HttpOnly_" : "") + (cookie.isHostOnly ? "" : ".") + cookie.domain
            let expiry = cookie.expires.map { String(Self.netscapeSeconds($0)) } ?? "0"
            let fields = [
                domain, cookie.isHostOnly ? "FALSE" : "TRUE", cookie.path, cookie.isSecure ? "TRUE" : "FALSE", expiry,
                cookie.name, cookie.value,
            ]
            text += fields.joined(separator: "\t") + "\n"
        }
        return NetscapeCookieExport(text: text, skipped: skipped)
    }

    /// An expiry as the format writes it: whole seconds since 1970, at least 1 (0 means a session cookie), clamped
    /// to what an `Int64` holds rather than trapping on a date beyond it.
    static func netscapeSeconds(_ date: Date) -> Int64 {
        let seconds = date.timeIntervalSince1970.rounded(.down)
        guard let whole = Int64(exactly: seconds) else { return seconds > 0 ? .max : 1 }
        return max(1, whole)
    }

    /// Adds the cookies of a Netscape cookie file, replacing those with the same name, domain and path; cookies
    /// that have expired are skipped. Returns how many were added.
    ///
    /// The file is read whole before anything is added: a line that is not a cookie (not seven fields, a flag that
    /// is neither `TRUE` nor `FALSE`, an expiry that is not a whole number) or a cookie that the jar's rules refuse
    /// throws a ``CookieFileError`` naming its line, and the jar is left as it was. The rules are a server's
    /// (``add(_:)``): nothing in a file reaches a request that a `Set-Cookie` could not have set, and no expiry lies
    /// more than 400 days ahead, however far the file's does.
    @discardableResult
    public func importNetscapeFile(_ text: String) throws(CookieFileError) -> Int {
        let now = self.now
        var cookies: [Cookie] = []
        for (index, raw) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
            let line = raw.hasSuffix("\r") ? raw.dropLast() : raw
            guard let cookie = try Self.cookie(fromLine: line, number: index + 1, now: now) else { continue }
            if !cookie.isExpired(at: now) { cookies.append(cookie) }
        }
        do {
            try add(contentsOf: cookies)
        } catch {
            throw CookieFileError(line: 0, reason: error.description)
        }
        return cookies.count
    }

    /// The cookie on one line, `nil` for a comment or a blank line.
    private static func cookie(fromLine line: Substring, number: Int, now: Date) throws(CookieFileError) -> Cookie? {
        var line = line
        var isHTTPOnly = false
        if line.hasPrefix("#HttpOnly_") {
            isHTTPOnly = true
            line = line.dropFirst("#HttpOnly_".count)
        } else if line.hasPrefix("#") || line.allSatisfy(\.isWhitespace) {
            return nil
        }
        let fields = line.split(separator: "\t", omittingEmptySubsequences: false).map(String.init)
        guard fields.count == 7 else {
            throw CookieFileError(line: number, reason: "it has \(fields.count) tab-separated fields, not 7")
        }
        guard let subdomains = flag(fields[1]), let secure = flag(fields[3]) else {
            throw CookieFileError(line: number, reason: "a flag is neither TRUE nor FALSE")
        }
        guard let seconds = Int64(fields[4]), seconds >= 0 else {
            throw CookieFileError(line: number, reason: "the expiry \(fields[4]) is not a whole number of seconds")
        }
        let domain = fields[0].hasPrefix(".") ? String(fields[0].dropFirst()) : fields[0]
        return Cookie(
            name: fields[5], value: fields[6], domain: domain, isHostOnly: !subdomains, path: fields[2],
            expires: seconds == 0 ? nil : Date(timeIntervalSince1970: TimeInterval(seconds)), isSecure: secure,
            isHTTPOnly: isHTTPOnly, created: now)
    }

    private static func flag(_ text: String) -> Bool? {
        switch text.uppercased() {
        case "TRUE": true
        case "FALSE": false
        default: nil
        }
    }
}

/// A Netscape cookie file that could not be imported: the line and what is wrong with it.
public struct CookieFileError: DescribedError, Hashable {
    /// The line, counted from 1; 0 when the file parsed but a cookie in it was refused.
    public var line: Int
    /// What is wrong.
    public var reason: String

    /// Creates an error.
    public init(line: Int, reason: String) {
        self.line = line
        self.reason = reason
    }

    /// One sentence naming the line.
    public var userMessage: String {
        line > 0
            ? "Line \(line) of the cookie file is not a cookie: \(reason)."
            : "A cookie in the file was refused: \(reason)"
    }

    /// The type, the line and the reason, for the log.
    public var debugDescription: String { "CookieFileError(line: \(line)): \(reason)" }
}

/// What ``CookieJar/exportNetscapeFile()`` wrote, and what it could not.
public struct NetscapeCookieExport: Sendable, Hashable {
    /// The file's text.
    public var text: String
    /// The cookies left out: a tab in the name, value or path would split the line.
    public var skipped: [Cookie]
}
