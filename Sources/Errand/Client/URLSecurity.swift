import Foundation

/// The client's rules about which URLs and headers may be sent.
enum URLSecurity {
    /// Whether the host is loopback without asking a resolver: `localhost`, 127.0.0.0/8 or `::1`.
    ///
    /// A name under `.localhost` is not counted: RFC 6761 asks resolvers to answer it with loopback, but whatever
    /// resolves it here (a hosts file, a DNS server) may say otherwise, and the transport's answer is not known here.
    static func isLoopback(host: String?) -> Bool {
        guard var host = host?.lowercased() else { return false }
        if host.hasPrefix("[") && host.hasSuffix("]") { host = String(host.dropFirst().dropLast()) }
        if host == "localhost" || host == "::1" || host == "0:0:0:0:0:0:0:1" {
            return true
        }
        // Dotted decimal only, without leading zeros, which some resolvers read as octal.
        let octets = host.split(separator: ".", omittingEmptySubsequences: false)
        guard octets.count == 4, octets[0] == "127" else { return false }
        return octets.allSatisfy { UInt8($0) != nil && ($0.count == 1 || !$0.hasPrefix("0")) }
    }

    /// Throws unless the URL is https, or http that the policy permits.
    static func check(_ url: URL, plainHTTP: PlainHTTPPolicy) throws(ErrandError) {
        switch url.scheme?.lowercased() {
        case "https":
            return
        case "http":
            if plainHTTP.permitsHTTP(to: url) { return }
            throw .insecureURL(url)
        default:
            throw .invalidURL(
                "Only https (and http to loopback) URLs can be requested, not \(url.scheme ?? "a URL without a scheme")."
            )
        }
    }

    /// Throws if a header name is not an RFC 9110 token or a value holds CR, LF or NUL (header injection).
    static func check(_ headers: HTTPHeaders) throws(ErrandError) {
        for field in headers {
            guard FieldSyntax.isToken(field.name) else {
                throw .invalidRequest(
                    "the header name \"\(field.name.debugDescription.dropFirst().dropLast())\" is not allowed.")
            }
            if FieldSyntax.breaksALine(field.value) {
                throw .invalidRequest("the value of header \(field.name) contains a line break.")
            }
        }
    }
}
