import Foundation

/// The client's rules about which URLs and headers may be sent.
enum URLSecurity {
    /// Whether the host is loopback: `localhost`, 127.0.0.0/8 or `::1`.
    static func isLoopback(host: String?) -> Bool {
        guard var host = host?.lowercased() else { return false }
        if host.hasPrefix("[") && host.hasSuffix("]") { host = String(host.dropFirst().dropLast()) }
        if host == "localhost" || host.hasSuffix(".localhost") || host == "::1" || host == "0:0:0:0:0:0:0:1" {
            return true
        }
        let octets = host.split(separator: ".", omittingEmptySubsequences: false)
        guard octets.count == 4, octets[0] == "127" else { return false }
        return octets.allSatisfy { octet in UInt8(octet).map { _ in true } ?? false }
    }

    /// Throws unless the URL is https, or http to loopback, or http with `allowsInsecureHTTP`.
    static func check(_ url: URL, allowsInsecureHTTP: Bool) throws(ErrandError) {
        switch url.scheme?.lowercased() {
        case "https":
            return
        case "http":
            if allowsInsecureHTTP || isLoopback(host: url.host) { return }
            throw .insecureURL(url)
        default:
            throw .invalidURL("Only https (and http to loopback) URLs can be requested, not \(url.scheme ?? "a URL without a scheme").")
        }
    }

    /// Throws if a header name is not an RFC 9110 token or a value holds CR, LF or NUL (header injection).
    static func check(_ headers: HTTPHeaders) throws(ErrandError) {
        for field in headers {
            guard !field.name.isEmpty, field.name.utf8.allSatisfy(isTokenByte) else {
                throw .invalidRequest("the header name \"\(field.name.debugDescription.dropFirst().dropLast())\" is not allowed.")
            }
            if field.value.utf8.contains(where: { $0 == 0x0D || $0 == 0x0A || $0 == 0x00 }) {
                throw .invalidRequest("the value of header \(field.name) contains a line break.")
            }
        }
    }

    private static func isTokenByte(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"),
            UInt8(ascii: "0")...UInt8(ascii: "9"):
            return true
        case UInt8(ascii: "!"), UInt8(ascii: "#"), UInt8(ascii: "$"), UInt8(ascii: "%"), UInt8(ascii: "&"),
            UInt8(ascii: "'"), UInt8(ascii: "*"), UInt8(ascii: "+"), UInt8(ascii: "-"), UInt8(ascii: "."),
            UInt8(ascii: "^"), UInt8(ascii: "_"), UInt8(ascii: "`"), UInt8(ascii: "|"), UInt8(ascii: "~"):
            return true
        default:
            return false
        }
    }
}
