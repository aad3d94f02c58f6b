import Foundation

/// A jar's cookies on disk: one SQLite file (WAL, mode 0600, never through a symbolic link), prepared, opened and
/// recovered as the cache's file is (``SQLiteFile``).
///
/// Only cookies with an expiry are written: a session cookie ends with the jar that holds it. The file is read
/// whole when the jar opens; after that the jar writes each change through. Not thread-safe: the jar serializes.
final class CookieFile {
    let fileURL: URL
    private var connection: SQLiteConnection?

    /// 1: the first layout.
    static let schemaVersion = 1

    /// Opens or creates the file, replacing one that is damaged or not a database.
    init(fileURL: URL) throws(CookieStorageError) {
        self.fileURL = fileURL
        let path = fileURL.path
        try Self.prepare(fileURL)
        do {
            do {
                connection = try Self.open(path: path)
            } catch  where error.meansDamagedFile {
                try SQLiteFile.replaceDamagedOrRefuse(at: fileURL, as: .cookies)
                connection = try Self.open(path: path)
            }
        } catch  where error.meansLocked {
            throw CookieStorageError(path: path, kind: .inUse, reason: error.description)
        } catch {
            throw CookieStorageError(path: path, kind: .unusable, reason: error.description)
        }
    }

    /// Every cookie in the file that has an expiry.
    func load() -> [Cookie] {
        var cookies: [Cookie] = []
        perform { connection throws(SQLiteError) in
            cookies = []
            try connection.query(
                """
                SELECT name, value, domain, host_only, path, expires, secure, http_only, same_site, created, accessed
                FROM cookies
                """
            ) { row in
                cookies.append(
                    Cookie(
                        name: row.text(0), value: row.text(1), domain: row.text(2), isHostOnly: row.integer(3) != 0,
                        path: row.text(4), expires: Date(timeIntervalSince1970: row.real(5)),
                        isSecure: row.integer(6) != 0, isHTTPOnly: row.integer(7) != 0,
                        sameSite: Cookie.SameSite(rawValue: row.text(8)),
                        created: Date(timeIntervalSince1970: row.real(9)),
                        lastAccessed: Date(timeIntervalSince1970: row.real(10))))
            }
        }
        return cookies
    }

    /// Writes a change in one transaction: stored cookies with an expiry replace their rows, session cookies and
    /// removed records lose theirs.
    func write(_ changes: CookieCollection.Changes) {
        guard !changes.stored.isEmpty || !changes.removed.isEmpty else { return }
        perform { connection throws(SQLiteError) in
            try SQLiteFile.transaction(connection) { () throws(SQLiteError) in
                for identity in changes.removed + changes.stored.filter({ $0.expires == nil }).map(\.identity) {
                    try connection.query(
                        "DELETE FROM cookies WHERE name = ? AND domain = ? AND host_only = ? AND path = ?",
                        Self.key(identity))
                }
                for cookie in changes.stored where cookie.expires != nil {
                    try connection.query(
                        """
                        INSERT OR REPLACE INTO cookies (name, domain, host_only, path, value, expires, secure,
                            http_only, same_site, created, accessed)
                        VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
                        """,
                        Self.key(cookie.identity) + [
                            .text(cookie.value), .real(cookie.expires?.timeIntervalSince1970 ?? 0),
                            .integer(cookie.isSecure ? 1 : 0), .integer(cookie.isHTTPOnly ? 1 : 0),
                            .text(cookie.sameSite?.rawValue ?? ""), .real(cookie.created.timeIntervalSince1970),
                            .real(cookie.lastAccessed.timeIntervalSince1970),
                        ])
                }
            }
        }
    }

    /// Removes every row.
    func removeAll() {
        perform { connection throws(SQLiteError) in try connection.execute("DELETE FROM cookies") }
    }

    private static func key(_ identity: Cookie.Identity) -> [SQLiteValue] {
        [.text(identity.name), .text(identity.domain), .integer(identity.isHostOnly ? 1 : 0), .text(identity.path)]
    }

    /// Runs `body`; a damaged file is replaced by an empty one (the jar keeps its cookies in memory and writes the
    /// next changes there), any other failure is dropped, as a cookie that is not saved is no reason to fail a
    /// request.
    private func perform(_ body: (SQLiteConnection) throws(SQLiteError) -> Void) {
        guard let connection else { return }
        do {
            try body(connection)
        } catch  where error.meansDamagedFile {
            self.connection = nil
            // A file that is no longer recognisably a cookie file is left alone; the cookies stay in memory.
            guard (try? SQLiteFile.replaceDamaged(at: fileURL, as: .cookies)) != nil else { return }
            self.connection = try? Self.open(path: fileURL.path)
        } catch {
            // Busy beyond the timeout, disk full, read-only: the cookies stay in memory.
        }
    }

    private static func prepare(_ url: URL) throws(CookieStorageError) {
        do {
            try SQLiteFile.prepare(at: url, as: .cookies)
        } catch {
            throw CookieStorageError(
                path: url.path, kind: error.isSymbolicLink ? .symbolicLink : .unusable, reason: error.reason)
        }
    }

    /// Opens the file, creates the schema when it is not this version's, and reads the table end to end so that a
    /// damaged page shows up now.
    private static func open(path: String) throws(SQLiteError) -> SQLiteConnection {
        let connection = try SQLiteConnection(path: path)
        // Before anything is written: another program's database is refused, not turned into a cookie file.
        try SQLiteFile.claim(connection, as: .cookies)
        try connection.execute("PRAGMA journal_mode = WAL; PRAGMA synchronous = NORMAL")
        var version: Int64 = 0
        try connection.query("PRAGMA user_version") { version = $0.integer(0) }
        if version != Int64(schemaVersion) {
            try SQLiteFile.transaction(connection) { () throws(SQLiteError) in
                // Another process may have created the schema while this one waited for the lock.
                try connection.query("PRAGMA user_version") { version = $0.integer(0) }
                if version != Int64(schemaVersion) { try connection.execute(schema) }
            }
            SQLiteFile.checkpoint(connection)
        }
        try connection.query("SELECT count(*), coalesce(sum(length(value)), 0) FROM cookies")
        return connection
    }

    static let schema = """
        DROP TABLE IF EXISTS cookies;
        CREATE TABLE cookies (
            name TEXT NOT NULL,
            domain TEXT NOT NULL,
            host_only INTEGER NOT NULL,
            path TEXT NOT NULL,
            value TEXT NOT NULL,
            expires REAL NOT NULL,
            secure INTEGER NOT NULL,
            http_only INTEGER NOT NULL,
            same_site TEXT NOT NULL,
            created REAL NOT NULL,
            accessed REAL NOT NULL,
            PRIMARY KEY (name, domain, host_only, path)
        );
        PRAGMA user_version = \(schemaVersion);
        """
}

/// A cookie file could not be opened: another process holds it, the path is a symbolic link, or the folder or
/// file cannot be created or read as a cookie file.
public struct CookieStorageError: DescribedError, Hashable {
    /// Why a cookie file cannot be used.
    public enum Kind: Sendable, Hashable {
        /// Another process holds a lock on the file that does not let this one in.
        case inUse
        /// The path is a symbolic link, which is never followed.
        case symbolicLink
        /// The folder or the file cannot be created, or SQLite refused the file.
        case unusable
    }

    /// The database file.
    public var path: String
    /// Why it cannot be used.
    public var kind: Kind
    /// What went wrong, in detail.
    public var reason: String

    /// One sentence: the file and why it cannot be used.
    public var userMessage: String {
        switch kind {
        case .inUse: return "The cookie file at \(path) is in use by another process."
        case .symbolicLink: return "The cookie file at \(path) is a symbolic link, which is not followed."
        case .unusable:
            return "The cookie file at \(path) could not be opened: \(reason)" + (reason.hasSuffix(".") ? "" : ".")
        }
    }

    /// The type, the kind, the path and the reason, for the log.
    public var debugDescription: String { "CookieStorageError.\(kind) at \(path): \(reason)" }
}
