import Foundation

/// A proxy to send requests through: its protocol, address and optional Basic credentials.
///
/// Written as a URL, the way curl and the `*_proxy` environment variables take it: `http://proxy.corp:3128`,
/// `socks5h://127.0.0.1:1080`, `http://user:pa%40ss@proxy:8080`. Without a scheme it is an HTTP proxy, and without
/// a port it is on 1080 (443 for an `https` proxy), as curl has it. Its ``description`` never shows the password.
public struct ProxyServer: Sendable, Hashable, CustomStringConvertible {
    /// The protocol spoken to the proxy.
    public enum Kind: String, Sendable, Hashable, CaseIterable {
        /// An HTTP proxy: plain `http` requests go to it whole, `https` ones through a `CONNECT` tunnel.
        case http
        /// An HTTP proxy reached over TLS (CurlTransport only).
        case https
        /// SOCKS5, the client resolving host names (CurlTransport only).
        case socks5
        /// SOCKS5, the proxy resolving host names (CurlTransport only).
        case socks5h
    }

    /// The protocol spoken to the proxy.
    public var kind: Kind
    /// The proxy's host name or IP address (an IPv6 address without brackets).
    public var host: String
    /// The proxy's port.
    public var port: Int
    /// The credentials the proxy asks for, sent with Basic authentication; `nil` sends none.
    public var credentials: ProxyCredentials?

    /// Creates a proxy address.
    public init(_ kind: Kind = .http, host: String, port: Int, credentials: ProxyCredentials? = nil) {
        self.kind = kind
        self.host = host
        self.port = port
        self.credentials = credentials
    }

    /// Reads a proxy written as a URL (`http://user:password@host:port`, the scheme and port optional).
    ///
    /// - Throws: ``ErrandError/invalidRequest(_:)`` for text that names no host, an unknown scheme or a bad port;
    ///   the message shows the text with whatever could be its user name and password masked.
    public init(parsing text: String) throws(ErrandError) {
        let trimmed = text.trimmingCharacters(in: .whitespaces)
        let withScheme = Self.hasScheme(trimmed) ? trimmed : "http://" + trimmed
        guard let components = URLComponents(string: withScheme), let host = components.host, !host.isEmpty else {
            let hint =
                trimmed.contains("@")
                ? "; a user name or password holding /, @, : or % must be percent-encoded (%2F, %40, %3A, %25)" : ""
            throw .invalidRequest("the proxy \(Self.masked(trimmed)) is not a proxy URL (http://host:port)\(hint).")
        }
        guard let kind = Kind(rawValue: components.scheme?.lowercased() ?? "") else {
            throw .invalidRequest(
                "the proxy \(Self.masked(trimmed)) has a scheme Errand does not speak: use http, https, socks5 or socks5h."
            )
        }
        let port = components.port ?? (kind == .https ? 443 : 1080)
        guard (1...65_535).contains(port) else {
            throw .invalidRequest("the proxy \(Self.masked(trimmed)) has no valid port.")
        }
        let credentials = components.percentEncodedUser.map { user in
            ProxyCredentials(
                user: PercentEncoding.decode(user) ?? user,
                password: components.percentEncodedPassword.map { PercentEncoding.decode($0) ?? $0 } ?? "")
        }
        let bare = host.hasPrefix("[") && host.hasSuffix("]") ? String(host.dropFirst().dropLast()) : host
        self.init(kind, host: bare, port: port, credentials: credentials)
    }

    /// `kind://host:port`, with the user name and a masked password when there are credentials.
    public var description: String {
        let user = credentials.map { "\($0.user):\(Redaction.mask)@" } ?? ""
        return "\(kind.rawValue)://\(user)\(hostAndPort)"
    }

    /// `host:port`, an IPv6 host in brackets.
    public var hostAndPort: String {
        (host.contains(":") ? "[\(host)]" : host) + ":\(port)"
    }

    /// The text with whatever could be its credentials masked (``Redaction/maskingCredentials(in:)``), for messages
    /// about text that did not parse.
    static func masked(_ text: String) -> String {
        Redaction.maskingCredentials(in: text)
    }

    /// Whether the text starts with a scheme and `://` (`socks5h://…`), rather than a user name that merely holds
    /// `://` in its password (`user:PRO://SECRET@host`), which is a proxy without a scheme.
    static func hasScheme(_ text: String) -> Bool {
        Redaction.authorityAfterScheme(in: text) != nil
    }
}

/// A user name and password for a proxy's Basic authentication; its description hides the password.
public struct ProxyCredentials: Sendable, Hashable, CustomStringConvertible, CustomReflectable {
    /// The user name.
    public var user: String
    /// The password.
    public var password: String

    /// Creates credentials.
    public init(user: String, password: String) {
        self.user = user
        self.password = password
    }

    /// The user name and a masked password.
    public var description: String { "\(user):\(Redaction.mask)" }

    /// The user name only, so that `dump` and debuggers never show the password.
    public var customMirror: Mirror { Mirror(self, children: ["user": user, "password": Redaction.mask]) }
}
