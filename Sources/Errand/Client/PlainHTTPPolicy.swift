import Foundation

/// Where a client may use plain, unencrypted http: for its requests and for every redirect they follow.
///
/// An API's answers are data, not addresses to trust: a response (or a redirect) that hands out
/// `http://127.0.0.1:PORT/…` must not make a client of a remote https API talk to a service on the user's own
/// machine. So plain http to loopback is for clients that were configured for loopback themselves, by their base URL.
public enum PlainHTTPPolicy: Sendable, Hashable {
    /// Nowhere: https only. A client with an https base URL on another host.
    case never
    /// To loopback hosts only — `localhost`, 127.0.0.0/8, `::1` — for a client whose base URL is loopback (a local
    /// test server or replica). `*.localhost` names do not count: only what is loopback without asking a resolver.
    case loopback
    /// Anywhere (``ClientConfiguration/allowsInsecureHTTP``).
    case anywhere

    /// The policy of a client with this base URL: anywhere when insecure http is allowed, loopback when the base URL's
    /// host is loopback (over http or https), never otherwise.
    public init(baseURL: URL, allowsInsecureHTTP: Bool) {
        if allowsInsecureHTTP {
            self = .anywhere
        } else {
            self = URLSecurity.isLoopback(host: baseURL.host) ? .loopback : .never
        }
    }

    /// Whether a host is loopback without asking a resolver: `localhost`, 127.0.0.0/8 in dotted decimal, or `::1`
    /// (with or without brackets). Names under `.localhost` are not.
    public static func isLoopback(_ host: String?) -> Bool {
        URLSecurity.isLoopback(host: host)
    }

    /// Whether plain http may go to this URL's host.
    public func permitsHTTP(to url: URL) -> Bool {
        switch self {
        case .never: return false
        case .loopback: return URLSecurity.isLoopback(host: url.host)
        case .anywhere: return true
        }
    }
}
