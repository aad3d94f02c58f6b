import Foundation
import Synchronization

/// The cookies a client keeps: stored from every `Set-Cookie` a server answers with (on every redirect hop too)
/// and sent back where RFC 6265bis's rules allow. Opt in with ``ClientConfiguration/cookies``.
///
/// In memory (``init(limits:publicSuffixes:clock:)``) or persisted in an SQLite file (``init(fileURL:limits:publicSuffixes:clock:)``).
/// One jar may serve several clients; it is safe to use from any task.
///
/// ```swift
/// let jar = CookieJar()
/// var configuration = ClientConfiguration(baseURL: URL(string: "https://api.example.com")!)
/// configuration.cookies = jar
/// ```
///
/// The rules: a cookie without `Domain` goes to its host alone; with one, to that domain and below, unless the domain
/// is a public suffix (``PublicSuffixList``). `Secure` cookies are set and sent only over https or to a loopback
/// host. `__Secure-` and `__Host-` names keep their promises. A cookie lasts until its `Max-Age` or `Expires`, at most
/// 400 days; one with neither lasts as long as the jar. `HttpOnly` and `SameSite` are stored and reported but do not
/// keep a cookie back: every request an HTTP client sends is one its user asked for.
public final class CookieJar: Sendable {
    /// How many cookies a jar keeps: beyond a limit, the least recently used go first (expired ones before any).
    public struct Limits: Sendable, Hashable {
        /// The most cookies with one ``Cookie/domain``. Default 180 (RFC 6265bis asks for at least 50).
        public var perDomain: Int
        /// The most cookies in the jar. Default 3000 (RFC 6265bis asks for at least 3000).
        public var total: Int

        /// Creates limits.
        public init(perDomain: Int = 180, total: Int = 3000) {
            self.perDomain = max(1, perDomain)
            self.total = max(1, total)
        }
    }

    private struct State {
        var collection: CookieCollection
        var file: CookieFile?
    }

    private let state: Mutex<State>
    let timeline: Timeline
    /// The file the cookies are kept in, or `nil` for a jar in memory.
    public let fileURL: URL?

    /// A jar in memory.
    ///
    /// - Parameters:
    ///   - limits: how many cookies the jar keeps per domain and in all.
    ///   - publicSuffixes: the domains refused as cookie domains; the system's list by default.
    ///   - clock: what the jar reads the date from (cookie expiry); a test passes a manual clock.
    public init(
        limits: Limits = Limits(), publicSuffixes: PublicSuffixList = .system,
        clock: any Clock<Duration> = ContinuousClock()
    ) {
        state = Mutex(State(collection: CookieCollection(limits: limits, suffixes: publicSuffixes)))
        timeline = Timeline(clock)
        fileURL = nil
    }

    /// A jar kept in an SQLite file: its cookies are read now, and every change is written through.
    ///
    /// What the file holds is as untrusted as what a server sends: a row whose name, value, domain or path a
    /// `Set-Cookie` could not carry (a control character, a `;`, a public suffix as a domain cookie's domain) is
    /// dropped from the file, and an expiry beyond 400 days from now is cut to that. Session cookies stay in memory.
    /// A damaged cookie file is replaced by an empty one; a file that is not recognisably a cookie file of Errand's
    /// (not a database, another program's database) is refused and left as it is, and so is a path with a symbolic
    /// link on it that is not the system's, before anything is created. Other processes may open the same file, but
    /// each reads it only when it opens it, and the last to write a cookie wins.
    public convenience init(
        fileURL: URL, limits: Limits = Limits(), publicSuffixes: PublicSuffixList = .system,
        clock: any Clock<Duration> = ContinuousClock()
    ) throws(CookieStorageError) {
        try self.init(fileURL: fileURL, limits: limits, publicSuffixes: publicSuffixes, timeline: Timeline(clock))
    }

    /// A jar kept in a file, reading the date from `timeline` (a test reopens a file on the same timeline).
    init(fileURL: URL, limits: Limits, publicSuffixes: PublicSuffixList, timeline: Timeline)
        throws(CookieStorageError)
    {
        let file = try CookieFile(fileURL: fileURL)
        var collection = CookieCollection(limits: limits, suffixes: publicSuffixes)
        // A row passes the rules a server's cookie does before it can reach a request; what a row fails, what
        // expired while the file was closed and what a smaller limit evicts now leaves the file too.
        file.write(collection.load(file.load(), now: timeline.date))
        state = Mutex(State(collection: collection, file: file))
        self.timeline = timeline
        self.fileURL = fileURL
    }

    /// The date the jar's clock reads.
    var now: Date { timeline.date }

    // MARK: Reading

    /// Every cookie that has not expired, by domain, path and name.
    public var cookies: [Cookie] {
        state.withLock { $0.collection.all(now: now) }
    }

    /// How many records the jar holds, expired ones not yet evicted included.
    var cookieCount: Int { state.withLock { $0.collection.entries.count } }

    /// The sizes of the jar's eviction heaps, live and stale elements together.
    var queueSizes: (usage: Int, expiry: Int) { state.withLock { $0.collection.queueSizes } }

    /// The cookies a request to `url` would carry, in the order they would be sent.
    public func cookies(for url: URL) -> [Cookie] {
        state.withLock { $0.collection.matching(url, now: now) }
    }

    /// The `Cookie` field value a request to `url` would carry, or `nil` when no cookie applies.
    public func headerValue(for url: URL) -> String? {
        Self.headerValue(cookies(for: url))
    }

    /// The `Cookie` field value for a request being sent, marking its cookies used (for the eviction order).
    func headerValueForSending(to url: URL) -> String? {
        let now = self.now
        return Self.headerValue(state.withLock { $0.collection.cookies(for: url, now: now) })
    }

    private static func headerValue(_ cookies: [Cookie]) -> String? {
        cookies.isEmpty ? nil : cookies.map(\.pair).joined(separator: "; ")
    }

    // MARK: Storing

    /// Stores every `Set-Cookie` of a response from `url`, in the order of the fields; those the rules refuse are
    /// dropped.
    ///
    /// Each field is one cookie, commas and all (`foo="bar, baz=qux"`), as the wire carries it. Errand's URLSession
    /// transport separates the fields that `HTTPURLResponse.allHeaderFields` joined; headers taken from that
    /// property directly hold the joined line, which this reads as one cookie.
    public func receive(_ headers: HTTPHeaders, from url: URL) {
        let fields = headers.values(for: "Set-Cookie")
        guard !fields.isEmpty else { return }
        let now = self.now
        state.withLock { state in
            var changes = CookieCollection.Changes()
            for field in fields {
                guard let parsed = SetCookie(field, now: now),
                    let changed = try? state.collection.receive(parsed, from: url, now: now)
                else { continue }
                changes.merge(changed)
            }
            state.file?.write(changes)
        }
    }

    /// Stores one `Set-Cookie` field value as if `url` had answered with it, or says why it was refused.
    public func receive(setCookie field: String, from url: URL) throws(CookieRejection) {
        let now = self.now
        guard let parsed = SetCookie(field, now: now) else { throw .malformed }
        try state.withLock { state throws(CookieRejection) in
            // Worked out before the write: an optional chain would skip its argument for a jar without a file.
            let changes = try state.collection.receive(parsed, from: url, now: now)
            state.file?.write(changes)
        }
    }

    /// Adds a cookie made by the caller, replacing one with its name, domain and path; an expired one removes that
    /// record instead.
    ///
    /// The rules a server's cookie obeys apply: a name and value without control characters (but a tab) or `;`, a
    /// name without `=`, at most 4096 bytes together, a path starting with `/` of at most 1024 bytes, a domain that
    /// is a host name or an IP address (which makes the cookie host-only), no public suffix as a domain cookie's
    /// domain, and the `__Secure-` and `__Host-` prefixes' promises. Its domain is lower-cased, IDNA-encoded and
    /// loses a leading dot; an expiry beyond 400 days from now is cut to that, and creation and last-access times
    /// after now are set to now.
    public func add(_ cookie: Cookie) throws(CookieRejection) {
        try add(contentsOf: [cookie])
    }

    /// Adds caller-made cookies as ``add(_:)`` does, all or (when one is refused) none.
    func add(contentsOf cookies: [Cookie]) throws(CookieRejection) {
        let now = self.now
        try state.withLock { state throws(CookieRejection) in
            var admitted: [Cookie] = []
            admitted.reserveCapacity(cookies.count)
            for cookie in cookies { admitted.append(try state.collection.admitted(cookie, now: now)) }
            var changes = CookieCollection.Changes()
            for cookie in admitted { changes.merge(state.collection.store(cookie, now: now, from: .caller)) }
            state.file?.write(changes)
        }
    }

    /// Removes the cookie with this cookie's name, domain, host-only flag and path.
    public func delete(_ cookie: Cookie) {
        let identity = cookie.identity
        remove { $0.identity == identity }
    }

    /// Removes the cookies for which `predicate` holds (`{ $0.domain == "example.com" }`, say).
    public func remove(where predicate: (Cookie) -> Bool) {
        state.withLock { state in
            let changes = state.collection.remove(where: predicate)
            state.file?.write(changes)
        }
    }

    /// Removes the session cookies (those without an expiry), as a browser does when it quits.
    public func removeSessionCookies() {
        remove { $0.expires == nil }
    }

    /// Removes every cookie, from memory and from the file.
    public func removeAll() {
        state.withLock { state in
            _ = state.collection.remove { _ in true }
            state.file?.removeAll()
        }
    }
}
