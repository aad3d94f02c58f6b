/// Why a cookie a server set (or a caller added) was not stored.
public enum CookieRejection: DescribedError, Hashable {
    /// The `Set-Cookie` value does not parse: a control character, no name and no value, or more than 4096 bytes
    /// of name and value.
    case malformed
    /// `Secure` (or a `__Secure-`/`__Host-` name) from a URL that is neither https nor loopback.
    case insecureOrigin
    /// The `Domain` is not the request's host or a domain above it (or the host is an IP address and the `Domain`
    /// is another).
    case domainMismatch(String)
    /// The `Domain` is a public suffix (`com`, `co.uk`) and not the request's host itself.
    case publicSuffix(String)
    /// The name starts with `__Secure-` or `__Host-` and the cookie breaks that prefix's rules.
    case prefix(String)
    /// A cookie from plain http would replace or shadow a `Secure` one of the same name.
    case shadowsSecureCookie(String)

    /// One sentence saying why.
    public var userMessage: String {
        switch self {
        case .malformed: "The Set-Cookie value is malformed."
        case .insecureOrigin: "A Secure cookie can only be set over https or to a loopback host."
        case .domainMismatch(let domain): "The cookie's domain \(domain) does not contain the request's host."
        case .publicSuffix(let domain): "The cookie's domain \(domain) is a public suffix."
        case .prefix(let name): "The cookie \(name) breaks the rules of its name's prefix."
        case .shadowsSecureCookie(let name): "The cookie \(name) would overwrite a Secure cookie from plain http."
        }
    }

    /// The case and its value, for the log.
    public var debugDescription: String {
        switch self {
        case .malformed: "CookieRejection.malformed"
        case .insecureOrigin: "CookieRejection.insecureOrigin"
        case .domainMismatch(let domain): "CookieRejection.domainMismatch(\(domain))"
        case .publicSuffix(let domain): "CookieRejection.publicSuffix(\(domain))"
        case .prefix(let name): "CookieRejection.prefix(\(name))"
        case .shadowsSecureCookie(let name): "CookieRejection.shadowsSecureCookie(\(name))"
        }
    }
}
