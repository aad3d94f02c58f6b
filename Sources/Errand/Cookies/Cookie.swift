import Foundation

/// A cookie as a ``CookieJar`` keeps it: RFC 6265bis's storage model, one record per name, domain and path.
public struct Cookie: Sendable, Hashable {
    /// The cookie's name; empty for a cookie set without one (`Set-Cookie: value`).
    public var name: String
    /// The cookie's value.
    public var value: String
    /// The host (host-only cookies) or the domain (domain cookies) it belongs to: lower-cased, IDNA-encoded, without
    /// a leading dot; a trailing dot kept, as an absolute name is another host. A cookie of an IP address is host-only.
    public var domain: String
    /// Whether it goes to ``domain`` alone (`true`, no `Domain` attribute) or to its subdomains too.
    public var isHostOnly: Bool
    /// The path it applies to and below, starting with `/`.
    public var path: String
    /// When it expires; `nil` for a session cookie, which lasts as long as the jar (and is never written to disk).
    public var expires: Date?
    /// Whether it goes only over https (or to loopback, which needs no encryption to be private).
    public var isSecure: Bool
    /// Whether it was marked `HttpOnly`: stored and reported. Errand is an HTTP client, not a script, so it sends
    /// these as it sends any other.
    public var isHTTPOnly: Bool
    /// The `SameSite` attribute as the server sent it; `nil` when it sent none or an unknown value.
    public var sameSite: SameSite?
    /// When the cookie was first stored (a replacement keeps the first one's): cookies with equal paths are sent
    /// oldest first. The jar gives each server's cookie a time later than any it gave before, so the cookies of one
    /// response keep the order their fields came in.
    public var created: Date
    /// When the cookie was last sent or stored: the least recently used go first when the jar is over its limits.
    public var lastAccessed: Date

    /// Creates a cookie; ``created`` and ``lastAccessed`` default to `created`.
    public init(
        name: String, value: String, domain: String, isHostOnly: Bool = true, path: String = "/",
        expires: Date? = nil, isSecure: Bool = false, isHTTPOnly: Bool = false, sameSite: SameSite? = nil,
        created: Date = Date(), lastAccessed: Date? = nil
    ) {
        self.name = name
        self.value = value
        self.domain = domain
        self.isHostOnly = isHostOnly
        self.path = path
        self.expires = expires
        self.isSecure = isSecure
        self.isHTTPOnly = isHTTPOnly
        self.sameSite = sameSite
        self.created = created
        self.lastAccessed = lastAccessed ?? created
    }

    /// The `SameSite` attribute's values.
    ///
    /// An HTTP client has no notion of the site a request comes from: every request Errand sends is one the user
    /// asked for, so the attribute is kept and reported but never keeps a cookie back (as with curl).
    public enum SameSite: String, Sendable, Hashable, CaseIterable {
        /// `SameSite=Strict`.
        case strict = "Strict"
        /// `SameSite=Lax`.
        case lax = "Lax"
        /// `SameSite=None`.
        case none = "None"
    }

    /// What makes two cookies the same record: a new one with the same identity replaces the old.
    public struct Identity: Sendable, Hashable {
        /// The cookie's name.
        public var name: String
        /// The cookie's domain.
        public var domain: String
        /// Whether the cookie is host-only.
        public var isHostOnly: Bool
        /// The cookie's path.
        public var path: String
    }

    /// The record this cookie is: name, domain, host-only flag and path.
    public var identity: Identity { Identity(name: name, domain: domain, isHostOnly: isHostOnly, path: path) }

    /// Whether it has expired at `date`.
    public func isExpired(at date: Date) -> Bool {
        guard let expires else { return false }
        return expires <= date
    }

    /// The cookie as a `Cookie` field pair: `name=value`, or the value alone for a cookie without a name.
    var pair: String { name.isEmpty ? value : name + "=" + value }
}
