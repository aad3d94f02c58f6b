import Foundation

/// The directives of `Cache-Control` header fields, as RFC 9111 §5.2 defines them, for requests and responses alike.
///
/// Unknown directives are ignored. A malformed delta-seconds value of `max-age` makes the directive count as present
/// without a value (so `max-age=abc` is treated as already stale, the safe reading); other malformed values are
/// ignored. Numbers beyond 2³¹ count as 2³¹ (RFC 9111 §1.2.2).
struct CacheControl: Sendable, Hashable {
    /// `max-age`, in seconds.
    var maxAge: Int?
    /// `stale-if-error` (RFC 5861), in seconds.
    var staleIfError: Int?
    /// `stale-while-revalidate` (RFC 5861), in seconds.
    var staleWhileRevalidate: Int?
    /// `no-store`.
    var noStore = false
    /// `no-cache` without field names: revalidate before every use.
    var noCache = false
    /// The field names of qualified `no-cache="a, b"` forms, lower-cased: those fields are not stored.
    var noCacheFields: [String] = []
    /// `must-revalidate`. (`proxy-revalidate` concerns shared caches only, and is ignored by this private one.)
    var mustRevalidate = false
    /// `private`, with or without field names (a private cache may store either).
    var isPrivate = false
    /// `public`.
    var isPublic = false
    /// `immutable` (RFC 8246).
    var immutable = false
    /// Whether `max-age` appeared but its value was not a number.
    var hasInvalidMaxAge = false
    /// Request only: `min-fresh`, in seconds.
    var minFresh: Int?
    /// Request only: `max-stale`, in seconds; ``unlimitedStaleness`` when it came without a value.
    var maxStale: Int?
    /// Request only: `only-if-cached`.
    var onlyIfCached = false

    /// The `max-stale` of a directive without a value: any staleness.
    static let unlimitedStaleness = Int.max
    /// The largest delta-seconds kept: 2³¹, as RFC 9111 §1.2.2 allows for anything bigger.
    static let largestDeltaSeconds = 2_147_483_648

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

    /// No directives.
    init() {}

    private mutating func apply(name: String, value: String?) {
        switch name {
        case "max-age":
            if let seconds = Self.deltaSeconds(value) {
                maxAge = min(maxAge ?? .max, seconds)
            } else {
                hasInvalidMaxAge = true
            }
        case "stale-if-error": staleIfError = Self.deltaSeconds(value) ?? staleIfError
        case "stale-while-revalidate": staleWhileRevalidate = Self.deltaSeconds(value) ?? staleWhileRevalidate
        case "min-fresh": minFresh = Self.deltaSeconds(value) ?? minFresh
        case "max-stale":
            if value == nil {
                maxStale = Self.unlimitedStaleness
            } else if let seconds = Self.deltaSeconds(value) {
                maxStale = max(maxStale ?? 0, seconds)
            }
        case "only-if-cached": onlyIfCached = true
        case "no-store": noStore = true
        case "no-cache":
            // The qualified form names fields not to reuse without revalidation; the rest may be reused (§5.2.2.4).
            if let value {
                noCacheFields += Self.fieldNames(value)
            } else {
                noCache = true
            }
        case "must-revalidate": mustRevalidate = true
        case "private": isPrivate = true
        case "public": isPublic = true
        case "immutable": immutable = true
        default: break
        }
    }

    /// The lower-cased field names of a quoted list such as `"Set-Cookie, X-Token"`.
    private static func fieldNames(_ list: String) -> [String] {
        list.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces).lowercased() }.filter { !$0.isEmpty }
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

    /// A non-negative integer number of seconds (RFC 9111 §1.2.1: digits only); huge values saturate at
    /// ``largestDeltaSeconds`` instead of failing (§1.2.2).
    static func deltaSeconds(_ value: String?) -> Int? {
        guard let value else { return nil }
        return deltaSeconds(Substring(value).utf8)
    }

    /// ``deltaSeconds(_:)`` on bytes, for callers that already have them.
    static func deltaSeconds(_ bytes: Substring.UTF8View) -> Int? {
        guard !bytes.isEmpty else { return nil }
        var value = 0
        for byte in bytes {
            guard (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte) else { return nil }
            value = min(largestDeltaSeconds, value * 10 + Int(byte - UInt8(ascii: "0")))
        }
        return value
    }
}
