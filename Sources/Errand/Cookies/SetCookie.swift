import Foundation

/// One `Set-Cookie` field value parsed by RFC 6265bis §5.6: the name-value pair and the attributes the storage
/// model reads, each the last one given. Pure: it knows nothing of the request or the jar.
///
/// The field is refused whole when it holds a control character (other than a tab), when the name and the value are
/// both empty, or when together they are longer than ``maxPairSize``. An attribute with a value longer than
/// ``maxAttributeSize`` is ignored, and so is one whose value does not parse: an `Expires` that is not an HTTP date
/// (read by the strict parser the cache uses, so a cookie lasts no longer than its server wrote it to), a `Max-Age`
/// that is not an optionally negative integer.
///
/// ``isValidPair(name:value:)`` and ``isValidPath(_:)`` state what a parsed name, value and path can be; a cookie
/// from a caller, the jar's file or a Netscape file is held to them too, so nothing reaches a `Cookie` field that a
/// server could not have set.
struct SetCookie: Sendable, Hashable {
    /// The most bytes of name and value together.
    static let maxPairSize = 4096
    /// The most bytes of one attribute's value.
    static let maxAttributeSize = 1024

    var name: String
    var value: String
    /// `Expires`, when it is an HTTP date.
    var expires: Date?
    /// `Max-Age` in seconds (clamped to what an `Int` holds); it wins over `Expires` wherever it is written.
    var maxAge: Int?
    /// The last `Domain`, lower-cased, without the leading dot a server may write; empty when that attribute was
    /// empty, which makes the cookie host-only (RFC 6265bis §5.7), `nil` when there was none. The storage model
    /// canonicalises it (``CookieDomain/canonical(_:)``).
    var domain: String?
    /// `Path`, when it starts with `/`.
    var path: String?
    var isSecure = false
    var isHTTPOnly = false
    var sameSite: Cookie.SameSite?

    /// The `Set-Cookie` values in a field value that a transport joined from repeated lines with commas
    /// (FoundationNetworking's and Apple's `allHeaderFields` do; curl keeps the lines apart). Only the URLSession
    /// transport calls it, where it reads those fields: a field that arrived on its own is one cookie, commas and all
    /// (`foo="bar, baz=qux"` stays one), which is what the jar assumes of every field it is handed.
    ///
    /// A comma starts a new value only when what follows it, up to the next `;` or `,`, is `name=…` with a name free
    /// of spaces: the comma in an `Expires` date (`Wed, 21 Oct 2026 …`) is followed by no `=`. What cannot be told
    /// apart after the join is a value that held `, name=` itself, and a nameless cookie after a comma, which stays
    /// part of the value before it.
    static func values(in field: String) -> [String] {
        guard field.contains(",") else { return [field] }
        var values: [String] = []
        var rest = Substring(field)
        var searchStart = rest.startIndex
        while let comma = rest[searchStart...].firstIndex(of: ",") {
            let after = rest[rest.index(after: comma)...]
            let segmentEnd = after.firstIndex { $0 == ";" || $0 == "," } ?? after.endIndex
            let segment = after[..<segmentEnd].drop { $0 == " " || $0 == "\t" }
            if let equals = segment.firstIndex(of: "="), equals > segment.startIndex,
                !segment[..<equals].contains(where: { $0 == " " || $0 == "\t" })
            {
                values.append(String(rest[..<comma]))
                rest = after
                searchStart = rest.startIndex
            } else {
                searchStart = after.startIndex
            }
        }
        values.append(String(rest))
        return values.map { $0.trimmingCharacters(in: .whitespaces) }.filter { !$0.isEmpty }
    }

    /// Parses a field value, or answers `nil` when the whole field must be ignored.
    init?(_ field: String, now: Date = Date()) {
        let bytes = Array(field.utf8)
        guard !bytes.contains(where: Self.isForbiddenControl) else { return nil }
        let pairEnd = bytes.firstIndex(of: UInt8(ascii: ";")) ?? bytes.endIndex
        let pair = bytes[..<pairEnd]
        if let equals = pair.firstIndex(of: UInt8(ascii: "=")) {
            name = Self.trimmed(pair[..<equals])
            value = Self.trimmed(pair[(equals + 1)...])
        } else {
            name = ""
            value = Self.trimmed(pair)
        }
        guard Self.isValidPair(name: name, value: value) else { return nil }
        guard pairEnd < bytes.endIndex else { return }
        for attribute in bytes[(pairEnd + 1)...].split(separator: UInt8(ascii: ";"), omittingEmptySubsequences: false) {
            read(attribute, now: now)
        }
    }

    private mutating func read(_ attribute: ArraySlice<UInt8>, now: Date) {
        let equals = attribute.firstIndex(of: UInt8(ascii: "="))
        let name = Self.trimmed(attribute[..<(equals ?? attribute.endIndex)]).lowercased()
        let value = equals.map { Self.trimmed(attribute[($0 + 1)...]) } ?? ""
        guard value.utf8.count <= Self.maxAttributeSize else { return }
        switch name {
        case "expires":
            if let date = HTTPDate.parse(value, now: now) { expires = date }
        case "max-age":
            if let seconds = Self.deltaSeconds(value) { maxAge = seconds }
        case "domain":
            domain = (value.hasPrefix(".") ? String(value.dropFirst()) : value).lowercased()
        case "path":
            path = value.hasPrefix("/") ? value : nil
        case "secure":
            isSecure = true
        case "httponly":
            isHTTPOnly = true
        case "samesite":
            sameSite = Cookie.SameSite.allCases.first { $0.rawValue.lowercased() == value.lowercased() }
        default:
            break
        }
    }

    /// `Max-Age`'s grammar: an optional `-` and digits, nothing else; clamped to what an `Int` holds.
    private static func deltaSeconds(_ text: String) -> Int? {
        var digits = Substring(text)
        let negative = digits.hasPrefix("-")
        if negative { digits = digits.dropFirst() }
        guard !digits.isEmpty, digits.utf8.allSatisfy({ (UInt8(ascii: "0")...UInt8(ascii: "9")).contains($0) })
        else { return nil }
        guard let magnitude = Int(digits) else { return negative ? Int.min : Int.max }
        return negative ? -magnitude : magnitude
    }

    /// Controls other than a tab (`%x00-08 / %x0A-1F / %x7F`).
    static func isForbiddenControl(_ byte: UInt8) -> Bool {
        (byte < 0x20 && byte != 0x09) || byte == 0x7F
    }

    /// Whether a name and value are what this parser can give: not both empty, at most ``maxPairSize`` bytes
    /// together, no control but a tab, no `;` (which ends the pair), no `=` in the name (which ends it).
    static func isValidPair(name: String, value: String) -> Bool {
        guard !(name.isEmpty && value.isEmpty), name.utf8.count + value.utf8.count <= maxPairSize else { return false }
        let semicolon = UInt8(ascii: ";")
        return !name.utf8.contains { isForbiddenControl($0) || $0 == semicolon || $0 == UInt8(ascii: "=") }
            && !value.utf8.contains { isForbiddenControl($0) || $0 == semicolon }
    }

    /// Whether a cookie path is one the jar keeps: starting with `/`, at most ``maxAttributeSize`` bytes (whether it
    /// came from `Path` or from the request's directory), no control but a tab.
    static func isValidPath(_ path: String) -> Bool {
        path.hasPrefix("/") && path.utf8.count <= maxAttributeSize && !path.utf8.contains(where: isForbiddenControl)
    }

    /// The bytes as text without leading or trailing spaces and tabs.
    private static func trimmed(_ bytes: ArraySlice<UInt8>) -> String {
        let isSpace = { (byte: UInt8) in byte == 0x20 || byte == 0x09 }
        guard let first = bytes.firstIndex(where: { !isSpace($0) }), let last = bytes.lastIndex(where: { !isSpace($0) })
        else { return "" }
        return String(decoding: bytes[first...last], as: UTF8.self)
    }
}
