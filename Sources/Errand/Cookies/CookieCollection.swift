import Foundation

/// The cookies of a jar and RFC 6265bis's storage model (§5.7) and retrieval (§5.8.3) over them. A value with no
/// I/O and no clock of its own: every change returns what changed, which a persistent jar writes to disk.
struct CookieCollection: Sendable {
    /// The longest a cookie is kept, however far its `Expires` or `Max-Age` reach (RFC 6265bis §5.6.1–2).
    static let longestLifetime: TimeInterval = 400 * 24 * 3600

    private(set) var cookies: [Cookie.Identity: Cookie] = [:]
    let limits: CookieJar.Limits
    let suffixes: PublicSuffixList

    init(limits: CookieJar.Limits, suffixes: PublicSuffixList) {
        self.limits = limits
        self.suffixes = suffixes
    }

    /// What one change did: the cookies stored (new or replaced) and the records removed.
    struct Changes: Sendable, Equatable {
        var stored: [Cookie] = []
        var removed: [Cookie.Identity] = []

        mutating func merge(_ other: Changes) {
            stored.removeAll { cookie in other.removed.contains(cookie.identity) }
            stored += other.stored
            removed += other.removed
        }
    }

    // MARK: Storing

    /// Applies one `Set-Cookie` that `url` answered with: stores, replaces or (expired) removes a cookie.
    mutating func receive(_ field: SetCookie, from url: URL, now: Date) throws(CookieRejection) -> Changes {
        guard let identity = ServerIdentity(url) else { throw .domainMismatch("") }
        let host = identity.host
        let secureOrigin = Self.isSecure(url)
        var cookie = Cookie(name: field.name, value: field.value, domain: host, created: now)
        cookie.expires = Self.expiry(of: field, now: now)
        if var domain = field.domain {
            if suffixes.isPublicSuffix(domain) {
                guard domain == host else { throw .publicSuffix(domain) }
                domain = ""
            }
            if !domain.isEmpty {
                guard CookieDomain.matches(host: host, domain: domain) else { throw .domainMismatch(domain) }
                cookie.domain = domain
                cookie.isHostOnly = false
            }
        }
        cookie.path = field.path ?? CookiePath.defaultPath(of: url)
        cookie.isSecure = field.isSecure
        cookie.isHTTPOnly = field.isHTTPOnly
        cookie.sameSite = field.sameSite
        if cookie.isSecure, !secureOrigin { throw .insecureOrigin }
        try Self.checkPrefix(cookie, secureOrigin: secureOrigin)
        if !cookie.isSecure, !secureOrigin, shadowsSecure(cookie) { throw .shadowsSecureCookie(cookie.name) }
        return store(cookie, now: now)
    }

    /// Where a stored cookie comes from: a server's replacement keeps the old one's creation time (§5.7), a
    /// caller's cookie keeps its own, and one read from disk keeps its last-access time too.
    enum Origin {
        case server, caller, file
    }

    /// Stores a cookie as it is (its flags and domain already checked), replacing one with its identity; an expired
    /// cookie removes its record instead.
    mutating func store(_ cookie: Cookie, now: Date, from origin: Origin = .server) -> Changes {
        var cookie = cookie
        var changes = Changes()
        let old = cookies[cookie.identity]
        if cookie.isExpired(at: now) {
            if old != nil {
                cookies[cookie.identity] = nil
                changes.removed.append(cookie.identity)
            }
            return changes
        }
        if origin == .server, let old { cookie.created = old.created }
        if origin != .file { cookie.lastAccessed = max(cookie.lastAccessed, now) }
        cookies[cookie.identity] = cookie
        changes.stored.append(cookie)
        changes.merge(evict(now: now, domain: cookie.domain))
        return changes
    }

    /// Removes the records for which `predicate` holds.
    mutating func remove(where predicate: (Cookie) -> Bool) -> Changes {
        let doomed = cookies.values.filter(predicate).map(\.identity)
        for identity in doomed { cookies[identity] = nil }
        return Changes(removed: doomed)
    }

    // MARK: Retrieving

    /// The cookies to send to `url`, in the order they are sent (longer paths first, then older first); marks them
    /// accessed at `now`.
    mutating func cookies(for url: URL, now: Date) -> [Cookie] {
        let matching = self.matching(url, now: now)
        for cookie in matching { cookies[cookie.identity]?.lastAccessed = now }
        return matching
    }

    /// The cookies that `url` would get, without marking them accessed.
    func matching(_ url: URL, now: Date) -> [Cookie] {
        guard let host = ServerIdentity(url)?.host else { return [] }
        let path = CookiePath.requestPath(of: url)
        let secure = Self.isSecure(url)
        return cookies.values.filter { cookie in
            guard !cookie.isExpired(at: now), !cookie.isSecure || secure else { return false }
            let hostMatches =
                cookie.isHostOnly ? host == cookie.domain : CookieDomain.matches(host: host, domain: cookie.domain)
            return hostMatches && CookiePath.matches(requestPath: path, cookiePath: cookie.path)
        }
        .sorted { first, second in
            if first.path.count != second.path.count { return first.path.count > second.path.count }
            if first.created != second.created { return first.created < second.created }
            return first.name < second.name
        }
    }

    /// Every cookie not expired at `now`, by domain, path and name.
    func all(now: Date) -> [Cookie] {
        cookies.values.filter { !$0.isExpired(at: now) }.sorted { first, second in
            (first.domain, first.path, first.name) < (second.domain, second.path, second.name)
        }
    }

    // MARK: Rules

    /// Whether cookies may be `Secure` for this URL: https, or a loopback host, which browsers also count as
    /// secure since its traffic never leaves the machine.
    static func isSecure(_ url: URL) -> Bool {
        url.scheme?.lowercased() == "https" || URLSecurity.isLoopback(host: url.host)
    }

    /// When the cookie expires: `Max-Age` over `Expires`, neither over 400 days from now; `nil` for a session cookie.
    private static func expiry(of field: SetCookie, now: Date) -> Date? {
        let latest = now.addingTimeInterval(longestLifetime)
        if let seconds = field.maxAge {
            guard seconds > 0 else { return .distantPast }
            return TimeInterval(seconds) >= longestLifetime ? latest : now.addingTimeInterval(TimeInterval(seconds))
        }
        return field.expires.map { min($0, latest) }
    }

    /// `__Secure-` needs `Secure` from a secure origin; `__Host-` also a host-only cookie on `/`. A cookie without a
    /// name may not look like either (RFC 6265bis §4.1.3), nor may either prefix be spelt in another case.
    static func checkPrefix(_ cookie: Cookie, secureOrigin: Bool) throws(CookieRejection) {
        let name = cookie.name.isEmpty ? cookie.value : cookie.name
        let lowered = name.lowercased()
        if cookie.name.isEmpty, lowered.hasPrefix("__secure-") || lowered.hasPrefix("__host-") {
            throw .prefix(name)
        }
        if lowered.hasPrefix("__secure-"), !(cookie.isSecure && secureOrigin) { throw .prefix(name) }
        if lowered.hasPrefix("__host-"),
            !(cookie.isSecure && secureOrigin && cookie.isHostOnly && cookie.path == "/")
        {
            throw .prefix(name)
        }
    }

    /// Whether a cookie from an insecure origin has the name of a `Secure` cookie whose domain and path overlap
    /// its own ("leave secure cookies alone").
    private func shadowsSecure(_ cookie: Cookie) -> Bool {
        cookies.values.contains { old in
            old.isSecure && old.name == cookie.name
                && (CookieDomain.matches(host: cookie.domain, domain: old.domain)
                    || CookieDomain.matches(host: old.domain, domain: cookie.domain))
                && CookiePath.matches(requestPath: cookie.path, cookiePath: old.path)
        }
    }

    /// Drops expired cookies, then the least recently used of `domain` beyond its limit, then the least recently
    /// used of all beyond the total.
    private mutating func evict(now: Date, domain: String) -> Changes {
        var changes = remove { $0.isExpired(at: now) }
        let sameDomain = cookies.values.filter { $0.domain == domain }
        if sameDomain.count > limits.perDomain {
            let doomed = Set(Self.leastRecentlyUsed(sameDomain, count: sameDomain.count - limits.perDomain))
            changes.merge(remove { doomed.contains($0.identity) })
        }
        if cookies.count > limits.total {
            let doomed = Set(Self.leastRecentlyUsed(Array(cookies.values), count: cookies.count - limits.total))
            changes.merge(remove { doomed.contains($0.identity) })
        }
        return changes
    }

    private static func leastRecentlyUsed(_ cookies: [Cookie], count: Int) -> [Cookie.Identity] {
        cookies.sorted { ($0.lastAccessed, $0.created) < ($1.lastAccessed, $1.created) }.prefix(count).map(\.identity)
    }
}
