import Foundation

/// The cookies of a jar and RFC 6265bis's storage model (§5.7) and retrieval (§5.8.3) over them. A value with no
/// I/O and no clock of its own: every change returns what changed, which a persistent jar writes to disk.
///
/// Every cookie enters through ``receive(_:from:now:)`` (a server's) or ``admitted(_:now:)`` (a caller's or a
/// file's), which canonicalise the domain and hold name, value and path to the parser's rules, so what is stored can
/// go on the wire. Indexes by domain and two lazy heaps (least recently used, soonest to expire) keep each insert at
/// O(log n) plus the cookies of the one domain over its limit, and a lookup at the cookies of the host's domains.
struct CookieCollection: Sendable {
    /// The longest a cookie is kept, however far its `Expires` or `Max-Age` reach (RFC 6265bis §5.6.1–2), whatever
    /// its source.
    static let longestLifetime: TimeInterval = 400 * 24 * 3600
    /// How far apart two creation times the jar gives are at least: cookies set in one response, or within the
    /// clock's resolution, still get times in the order they were set (§5.8.3 sends equal paths oldest first).
    static let creationStep: TimeInterval = 1e-6
    /// How far ahead of the clock a creation time read back may be: the times the jar gives run ahead by one step
    /// per cookie set within one tick of the clock, and a time further ahead (a tampered row) would hold every later
    /// cookie's time there.
    static let creationLead: TimeInterval = 60

    /// A stored cookie and its place in the order cookies were first stored in (a replacement keeps it, as it keeps
    /// the creation time), which breaks ties between equal creation times.
    struct Entry: Sendable {
        var cookie: Cookie
        var order: UInt64
    }

    private(set) var entries: [Cookie.Identity: Entry] = [:]
    private var byDomain: [String: Set<Cookie.Identity>] = [:]
    private var secureByName: [String: Set<Cookie.Identity>] = [:]
    private var usage = MinHeap<UsageKey>()
    private var expiries = MinHeap<ExpiryKey>()
    private var nextOrder: UInt64 = 0
    private var latestCreation = Date.distantPast
    let limits: CookieJar.Limits
    let suffixes: PublicSuffixList

    init(limits: CookieJar.Limits, suffixes: PublicSuffixList) {
        self.limits = limits
        self.suffixes = suffixes
    }

    /// How many elements each eviction heap holds, live and stale (bounded by ``compactQueuesIfNeeded()``).
    var queueSizes: (usage: Int, expiry: Int) { (usage.count, expiries.count) }

    /// The cookies, in no order.
    var cookies: some Collection<Cookie> { entries.values.lazy.map(\.cookie) }

    /// What one change did to each record it touched: stored (new or replaced) or removed. A record that did not
    /// exist before the change and is gone after it is no change at all, and is forgotten at once, so a response
    /// that sets and evicts thousands of cookies leaves only what the file must learn.
    struct Changes: Sendable, Equatable {
        private var outcome: [Cookie.Identity: Outcome] = [:]

        private struct Outcome: Sendable, Equatable {
            var existedBefore: Bool
            var cookie: Cookie?
        }

        init() {}

        /// A change that removes these records.
        init(removed: [Cookie.Identity]) {
            for identity in removed { remove(identity, existed: true) }
        }

        /// The cookies stored, in no particular order.
        var stored: [Cookie] { outcome.values.compactMap(\.cookie) }
        /// The records removed that existed before the change.
        var removed: [Cookie.Identity] { outcome.compactMap { $0.value.cookie == nil ? $0.key : nil } }
        var isEmpty: Bool { outcome.isEmpty }

        mutating func store(_ cookie: Cookie, existed: Bool) {
            record(cookie.identity, Outcome(existedBefore: existed, cookie: cookie))
        }

        mutating func remove(_ identity: Cookie.Identity, existed: Bool) {
            record(identity, Outcome(existedBefore: existed, cookie: nil))
        }

        /// Adds a later change: its outcome wins, the earlier one's knowledge of what existed before stays.
        mutating func merge(_ other: Changes) {
            for (identity, later) in other.outcome { record(identity, later) }
        }

        private mutating func record(_ identity: Cookie.Identity, _ later: Outcome) {
            let existed = outcome[identity]?.existedBefore ?? later.existedBefore
            if later.cookie == nil, !existed {
                outcome[identity] = nil
            } else {
                outcome[identity] = Outcome(existedBefore: existed, cookie: later.cookie)
            }
        }
    }

    // MARK: Storing

    /// Applies one `Set-Cookie` that `url` answered with: stores, replaces or (expired) removes a cookie.
    mutating func receive(_ field: SetCookie, from url: URL, now: Date) throws(CookieRejection) -> Changes {
        guard let server = ServerIdentity(url), let host = CookieDomain.canonical(server.host) else {
            throw .domainMismatch("")
        }
        let secureOrigin = Self.isSecure(url)
        var cookie = Cookie(name: field.name, value: field.value, domain: host, created: now)
        cookie.expires = Self.expiry(of: field, now: now)
        if let attribute = field.domain, !attribute.isEmpty {
            guard let domain = CookieDomain.canonical(attribute) else { throw .domainMismatch(attribute) }
            if CookieDomain.isIPAddress(host) {
                // An address is no domain: it takes a cookie for itself alone, host-only.
                guard domain == host else { throw .domainMismatch(domain) }
            } else if suffixes.isPublicSuffix(domain) {
                guard domain == host else { throw .publicSuffix(domain) }
            } else {
                guard CookieDomain.matches(host: host, domain: domain) else { throw .domainMismatch(domain) }
                cookie.domain = domain
                cookie.isHostOnly = false
            }
        }
        cookie.path = field.path ?? CookiePath.defaultPath(of: url)
        guard SetCookie.isValidPath(cookie.path) else { throw .malformed }
        cookie.isSecure = field.isSecure
        cookie.isHTTPOnly = field.isHTTPOnly
        cookie.sameSite = field.sameSite
        if cookie.isSecure, !secureOrigin { throw .insecureOrigin }
        let hasDomain = !(field.domain ?? "").isEmpty
        try Self.checkPrefix(cookie, secureOrigin: secureOrigin, hasDomainAttribute: hasDomain)
        if !cookie.isSecure, !secureOrigin, shadowsSecure(cookie) { throw .shadowsSecureCookie(cookie.name) }
        return store(cookie, now: now)
    }

    /// A caller's or a file's cookie as the jar would keep it, or why it is refused: the rules a server's cookie
    /// obeys. The domain is canonical (a leading dot dropped), an IP address makes it host-only, name, value and path
    /// pass the parser's rules, no public suffix is a domain cookie's domain, the prefixes keep their promises; the
    /// expiry is at most ``longestLifetime`` from `now`, the creation time at most ``creationLead`` after it and the
    /// last-access time no later than it. A time that is not a number refuses the cookie.
    func admitted(_ cookie: Cookie, now: Date) throws(CookieRejection) -> Cookie {
        var cookie = cookie
        let written = cookie.domain.hasPrefix(".") ? String(cookie.domain.dropFirst()) : cookie.domain
        guard let domain = CookieDomain.canonical(written) else { throw .malformed }
        cookie.domain = domain
        // A domain cookie says it had a Domain attribute, which `__Host-` forbids even where an address makes the
        // cookie host-only.
        let hasDomain = !cookie.isHostOnly
        if CookieDomain.isIPAddress(domain) { cookie.isHostOnly = true }
        guard SetCookie.isValidPair(name: cookie.name, value: cookie.value), SetCookie.isValidPath(cookie.path),
            cookie.created.timeIntervalSinceReferenceDate.isFinite,
            cookie.lastAccessed.timeIntervalSinceReferenceDate.isFinite
        else { throw .malformed }
        if let expires = cookie.expires {
            guard !expires.timeIntervalSinceReferenceDate.isNaN else { throw .malformed }
            cookie.expires = min(expires, now.addingTimeInterval(Self.longestLifetime))
        }
        cookie.created = min(cookie.created, now.addingTimeInterval(Self.creationLead))
        cookie.lastAccessed = min(cookie.lastAccessed, now)
        if !cookie.isHostOnly, suffixes.isPublicSuffix(domain) { throw .publicSuffix(domain) }
        try Self.checkPrefix(cookie, secureOrigin: true, hasDomainAttribute: hasDomain)
        return cookie
    }

    /// Where a stored cookie comes from: a server's new cookie gets the next creation time and a replacement keeps
    /// the old one's (§5.7), a caller's cookie keeps its own, and one read from disk keeps its last-access time too.
    enum Origin {
        case server, caller, file
    }

    /// Stores a cookie as it is (from a server, already checked; from elsewhere, ``admitted(_:now:)``), replacing
    /// one with its identity; an expired cookie removes its record instead.
    mutating func store(_ cookie: Cookie, now: Date, from origin: Origin = .server) -> Changes {
        var cookie = cookie
        var changes = Changes()
        let old = entries[cookie.identity]
        if cookie.isExpired(at: now) {
            if old != nil {
                removeEntry(cookie.identity)
                changes.remove(cookie.identity, existed: true)
            }
            return changes
        }
        let order: UInt64
        if let old, origin == .server {
            cookie.created = old.cookie.created
            order = old.order
        } else {
            if origin == .server {
                cookie.created = max(cookie.created, latestCreation.addingTimeInterval(Self.creationStep))
            }
            latestCreation = max(latestCreation, cookie.created)
            order = old?.order ?? nextOrder
            if old == nil { nextOrder &+= 1 }
        }
        if origin != .file { cookie.lastAccessed = max(cookie.lastAccessed, now) }
        // The secure-name index changes with the flag; the domain is part of the identity and cannot.
        if let old, old.cookie.isSecure != cookie.isSecure { removeEntry(cookie.identity) }
        insertEntry(Entry(cookie: cookie, order: order), replacing: old)
        changes.store(cookie, existed: old != nil)
        changes.merge(evict(now: now, domain: cookie.domain))
        return changes
    }

    /// Stores the cookies read from the jar's file and answers what the file must change to match: the rows that
    /// are refused, expired or beyond the limits go, and a row the rules rewrote (a canonical domain, a capped
    /// expiry) is written again.
    mutating func load(_ rows: [Cookie], now: Date) -> Changes {
        var changes = Changes()
        var kept: [(row: Cookie, cookie: Cookie)] = []
        for row in rows {
            guard let cookie = try? admitted(row, now: now), !cookie.isExpired(at: now) else {
                changes.remove(row.identity, existed: true)
                continue
            }
            kept.append((row, cookie))
        }
        // Oldest first, so that the order of first storing follows the creation times.
        let ordered = kept.enumerated().sorted { first, second in
            (first.element.cookie.created, first.offset) < (second.element.cookie.created, second.offset)
        }
        for (_, pair) in ordered { _ = store(pair.cookie, now: now, from: .file) }
        for (row, cookie) in kept {
            if let stored = entries[cookie.identity]?.cookie {
                if row.identity != stored.identity { changes.remove(row.identity, existed: true) }
                if stored != row { changes.store(stored, existed: true) }
            } else {
                changes.remove(row.identity, existed: true)
            }
        }
        return changes
    }

    /// Removes the records for which `predicate` holds.
    mutating func remove(where predicate: (Cookie) -> Bool) -> Changes {
        let doomed = entries.values.filter { predicate($0.cookie) }.map(\.cookie.identity)
        for identity in doomed { removeEntry(identity) }
        return Changes(removed: doomed)
    }

    // MARK: Retrieving

    /// The cookies to send to `url`, in the order they are sent (longer paths first, then older first); marks them
    /// accessed at `now`.
    mutating func cookies(for url: URL, now: Date) -> [Cookie] {
        var matching = self.matching(url, now: now)
        for index in matching.indices {
            let identity = matching[index].identity
            guard var entry = entries[identity], entry.cookie.lastAccessed != now else { continue }
            entry.cookie.lastAccessed = now
            entries[identity] = entry
            matching[index].lastAccessed = now
            usage.insert(UsageKey(entry))
        }
        compactQueuesIfNeeded()
        return matching
    }

    /// The cookies that `url` would get, without marking them accessed.
    func matching(_ url: URL, now: Date) -> [Cookie] {
        guard let server = ServerIdentity(url), let host = CookieDomain.canonical(server.host) else { return [] }
        let path = CookiePath.requestPath(of: url)
        let secure = Self.isSecure(url)
        var found: [Entry] = []
        for domain in CookieDomain.candidates(for: host) {
            for identity in byDomain[domain] ?? [] {
                guard let entry = entries[identity] else { continue }
                let cookie = entry.cookie
                guard !cookie.isExpired(at: now), !cookie.isSecure || secure,
                    !cookie.isHostOnly || cookie.domain == host,
                    CookiePath.matches(requestPath: path, cookiePath: cookie.path)
                else { continue }
                found.append(entry)
            }
        }
        return found.sorted { first, second in
            let (one, other) = (first.cookie, second.cookie)
            if one.path.utf8.count != other.path.utf8.count { return one.path.utf8.count > other.path.utf8.count }
            if one.created != other.created { return one.created < other.created }
            return first.order < second.order
        }
        .map(\.cookie)
    }

    /// Every cookie not expired at `now`, by domain, path and name.
    func all(now: Date) -> [Cookie] {
        cookies.filter { !$0.isExpired(at: now) }.sorted { first, second in
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

    /// `__Secure-` needs `Secure` from a secure origin; `__Host-` also a host-only cookie on `/` set without a
    /// `Domain` attribute (an address's cookie is host-only whatever its `Domain`, which still refuses it). A cookie
    /// without a name may not look like either (RFC 6265bis §4.1.3), nor may either prefix be spelt in another case.
    static func checkPrefix(_ cookie: Cookie, secureOrigin: Bool, hasDomainAttribute: Bool) throws(CookieRejection) {
        let name = cookie.name.isEmpty ? cookie.value : cookie.name
        let lowered = name.lowercased()
        if cookie.name.isEmpty, lowered.hasPrefix("__secure-") || lowered.hasPrefix("__host-") {
            throw .prefix(name)
        }
        if lowered.hasPrefix("__secure-"), !(cookie.isSecure && secureOrigin) { throw .prefix(name) }
        if lowered.hasPrefix("__host-"),
            !(cookie.isSecure && secureOrigin && cookie.isHostOnly && !hasDomainAttribute && cookie.path == "/")
        {
            throw .prefix(name)
        }
    }

    /// Whether a cookie from an insecure origin has the name of a `Secure` cookie whose domain and path overlap
    /// its own ("leave secure cookies alone").
    private func shadowsSecure(_ cookie: Cookie) -> Bool {
        (secureByName[cookie.name] ?? []).contains { identity in
            guard let old = entries[identity]?.cookie else { return false }
            return
                (CookieDomain.matches(host: cookie.domain, domain: old.domain)
                || CookieDomain.matches(host: old.domain, domain: cookie.domain))
                && CookiePath.matches(requestPath: cookie.path, cookiePath: old.path)
        }
    }

    // MARK: Eviction

    /// Drops expired cookies, then the least recently used of `domain` beyond its limit, then the least recently
    /// used of all beyond the total.
    private mutating func evict(now: Date, domain: String) -> Changes {
        var changes = Changes()
        while let soonest = expiries.min, soonest.expires <= now {
            expiries.popMin()
            guard soonest.isCurrent(in: entries) else { continue }
            removeEntry(soonest.identity)
            changes.remove(soonest.identity, existed: true)
        }
        // Bounded by the limit, not by the jar: only this domain's cookies are read, and one insert puts a domain
        // at most one over its limit.
        while let count = byDomain[domain]?.count, count > limits.perDomain, let least = leastRecentlyUsed(of: domain) {
            removeEntry(least)
            changes.remove(least, existed: true)
        }
        while entries.count > limits.total, let least = usage.popMin() {
            guard least.isCurrent(in: entries) else { continue }
            removeEntry(least.identity)
            changes.remove(least.identity, existed: true)
        }
        compactQueuesIfNeeded()
        return changes
    }

    private func leastRecentlyUsed(of domain: String) -> Cookie.Identity? {
        var least: UsageKey?
        for identity in byDomain[domain] ?? [] {
            guard let entry = entries[identity] else { continue }
            let key = UsageKey(entry)
            if let current = least, !(key < current) { continue }
            least = key
        }
        return least?.identity
    }

    private mutating func insertEntry(_ entry: Entry, replacing old: Entry?) {
        let identity = entry.cookie.identity
        entries[identity] = entry
        byDomain[entry.cookie.domain, default: []].insert(identity)
        if entry.cookie.isSecure { secureByName[entry.cookie.name, default: []].insert(identity) }
        let key = UsageKey(entry)
        if old.map(UsageKey.init) != key { usage.insert(key) }
        if let expiry = ExpiryKey(entry), old.flatMap(ExpiryKey.init) != expiry { expiries.insert(expiry) }
    }

    private mutating func removeEntry(_ identity: Cookie.Identity) {
        guard let entry = entries.removeValue(forKey: identity) else { return }
        let domain = entry.cookie.domain
        byDomain[domain]?.remove(identity)
        if byDomain[domain]?.isEmpty == true { byDomain[domain] = nil }
        if entry.cookie.isSecure {
            secureByName[entry.cookie.name]?.remove(identity)
            if secureByName[entry.cookie.name]?.isEmpty == true { secureByName[entry.cookie.name] = nil }
        }
    }

    /// Rebuilds a heap whose stale elements outnumber the live ones: each rebuild is paid for by as many inserts,
    /// so the heaps stay within twice the jar and the cost per insert stays constant on average.
    private mutating func compactQueuesIfNeeded() {
        if usage.count > 2 * entries.count + 64 {
            usage = MinHeap(entries.values.map(UsageKey.init))
        }
        if expiries.count > 2 * entries.count + 64 {
            expiries = MinHeap(entries.values.compactMap(ExpiryKey.init))
        }
    }

    /// A cookie's place in the eviction order: least recently used first, then oldest, then first stored.
    private struct UsageKey: Comparable, Sendable {
        var lastAccessed: Date
        var created: Date
        var order: UInt64
        var identity: Cookie.Identity

        init(_ entry: Entry) {
            lastAccessed = entry.cookie.lastAccessed
            created = entry.cookie.created
            order = entry.order
            identity = entry.cookie.identity
        }

        static func < (lhs: Self, rhs: Self) -> Bool {
            (lhs.lastAccessed, lhs.created, lhs.order) < (rhs.lastAccessed, rhs.created, rhs.order)
        }

        static func == (lhs: Self, rhs: Self) -> Bool {
            (lhs.lastAccessed, lhs.created, lhs.order) == (rhs.lastAccessed, rhs.created, rhs.order)
                && lhs.identity == rhs.identity
        }

        /// Whether the cookie it was made for is still stored as it was then.
        func isCurrent(in entries: [Cookie.Identity: Entry]) -> Bool {
            entries[identity].map { UsageKey($0) == self } ?? false
        }
    }

    /// A cookie's place in the expiry order: soonest first.
    private struct ExpiryKey: Comparable, Sendable {
        var expires: Date
        var order: UInt64
        var identity: Cookie.Identity

        init?(_ entry: Entry) {
            guard let expires = entry.cookie.expires else { return nil }
            self.expires = expires
            order = entry.order
            identity = entry.cookie.identity
        }

        static func < (lhs: Self, rhs: Self) -> Bool { (lhs.expires, lhs.order) < (rhs.expires, rhs.order) }

        static func == (lhs: Self, rhs: Self) -> Bool {
            lhs.expires == rhs.expires && lhs.order == rhs.order && lhs.identity == rhs.identity
        }

        func isCurrent(in entries: [Cookie.Identity: Entry]) -> Bool {
            entries[identity].flatMap(ExpiryKey.init) == self
        }
    }
}
