import Foundation

/// The directives of `Cache-Control` header fields, as RFC 9111 §5.2 defines them, parsed leniently.
///
/// Unknown directives are ignored; a malformed delta-seconds value makes its directive count as present without a
/// value (so `max-age=abc` is treated as already stale, the safe reading).
struct CacheControl: Sendable, Hashable {
    /// `max-age`, in seconds.
    var maxAge: Int?
    /// `stale-if-error` (RFC 5861), in seconds.
    var staleIfError: Int?
    /// `no-store`.
    var noStore = false
    /// `no-cache` (with or without field names: both mean "revalidate before every use" here).
    var noCache = false
    /// `must-revalidate` (and `proxy-revalidate`, which a private cache may treat alike).
    var mustRevalidate = false
    /// `private`.
    var isPrivate = false
    /// `public`.
    var isPublic = false
    /// `immutable` (RFC 8246).
    var immutable = false
    /// Whether `max-age` appeared but its value was not a number.
    var hasInvalidMaxAge = false

    /// Parses every `Cache-Control` field of the headers.
    init(_ headers: HTTPHeaders) {
        self.init(values: headers.values(for: "Cache-Control"))
    }

    /// Parses `Cache-Control` field values.
    init(values: [String]) {
        for value in values {
            for directive in Self.directives(in: value) {
                apply(name: directive.name, value: directive.value)
            }
        }
    }

    private mutating func apply(name: String, value: String?) {
        switch name {
        case "max-age":
            if let seconds = Self.deltaSeconds(value) {
                maxAge = min(maxAge ?? .max, seconds)
            } else {
                hasInvalidMaxAge = true
            }
        case "stale-if-error":
            staleIfError = Self.deltaSeconds(value)
        case "no-store": noStore = true
        case "no-cache": noCache = true
        case "must-revalidate", "proxy-revalidate": mustRevalidate = true
        case "private": isPrivate = true
        case "public": isPublic = true
        case "immutable": immutable = true
        default: break
        }
    }

    /// Splits a field value on commas outside quoted strings into lower-cased names and unquoted values.
    ///
    /// Works on UTF-8 bytes: it runs for every stored response read from disk.
    static func directives(in field: String) -> [(name: String, value: String?)] {
        let bytes = Array(field.utf8)
        var result: [(String, String?)] = []
        var start = 0
        var inQuotes = false
        for index in 0...bytes.count {
            if index < bytes.count {
                if bytes[index] == UInt8(ascii: "\"") { inQuotes.toggle() }
                guard bytes[index] == UInt8(ascii: ","), !inQuotes else { continue }
            }
            if let directive = directive(bytes[start..<index]) { result.append(directive) }
            start = index + 1
        }
        return result
    }

    private static func directive(_ part: ArraySlice<UInt8>) -> (String, String?)? {
        let part = trimmed(part)
        guard !part.isEmpty else { return nil }
        guard let equals = part.firstIndex(of: UInt8(ascii: "=")) else { return (lowercased(part), nil) }
        var value = trimmed(part[(equals + 1)...])
        if value.count >= 2, value.first == UInt8(ascii: "\""), value.last == UInt8(ascii: "\"") {
            value = value.dropFirst().dropLast()
        }
        return (lowercased(trimmed(part[..<equals])), String(decoding: value, as: UTF8.self))
    }

    private static func trimmed(_ bytes: ArraySlice<UInt8>) -> ArraySlice<UInt8> {
        func isSpace(_ byte: UInt8) -> Bool { byte == UInt8(ascii: " ") || byte == UInt8(ascii: "\t") }
        var slice = bytes
        while let first = slice.first, isSpace(first) { slice = slice.dropFirst() }
        while let last = slice.last, isSpace(last) { slice = slice.dropLast() }
        return slice
    }

    private static func lowercased(_ bytes: ArraySlice<UInt8>) -> String {
        String(
            decoding: bytes.map { (UInt8(ascii: "A")...UInt8(ascii: "Z")).contains($0) ? $0 + 32 : $0 }, as: UTF8.self)
    }

    /// A non-negative integer number of seconds; huge values saturate instead of failing (RFC 9111 §1.2.2).
    private static func deltaSeconds(_ value: String?) -> Int? {
        guard let value, !value.isEmpty, value.allSatisfy(\.isASCII), value.allSatisfy(\.isNumber) else { return nil }
        return Int(value) ?? Int(Int32.max)
    }
}
