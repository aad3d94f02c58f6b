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
        for value in headers.values(for: "Cache-Control") {
            for directive in Self.directives(in: value) {
                apply(name: directive.name, value: directive.value)
            }
        }
    }

    private mutating func apply(name: String, value: String?) {
        switch name {
        case "max-age":
            if let seconds = Self.deltaSeconds(value) { maxAge = min(maxAge ?? .max, seconds) } else { hasInvalidMaxAge = true }
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
    static func directives(in field: String) -> [(name: String, value: String?)] {
        var result: [(String, String?)] = []
        var current = ""
        var inQuotes = false
        func flush() {
            let part = current.trimmingCharacters(in: .whitespaces)
            current = ""
            guard !part.isEmpty else { return }
            if let equals = part.firstIndex(of: "=") {
                let name = part[..<equals].trimmingCharacters(in: .whitespaces).lowercased()
                var value = part[part.index(after: equals)...].trimmingCharacters(in: .whitespaces)
                if value.count >= 2, value.hasPrefix("\""), value.hasSuffix("\"") { value = String(value.dropFirst().dropLast()) }
                result.append((name, value))
            } else {
                result.append((part.lowercased(), nil))
            }
        }
        for character in field {
            if character == "\"" { inQuotes.toggle() }
            if character == ",", !inQuotes { flush() } else { current.append(character) }
        }
        flush()
        return result
    }

    /// A non-negative integer number of seconds; huge values saturate instead of failing (RFC 9111 §1.2.2).
    private static func deltaSeconds(_ value: String?) -> Int? {
        guard let value, !value.isEmpty, value.allSatisfy(\.isASCII), value.allSatisfy(\.isNumber) else { return nil }
        return Int(value) ?? Int(Int32.max)
    }
}
