import CSQLite
import Foundation
import Synchronization

/// The disk tier: cached responses in one SQLite file (WAL, mode 0600), kept under a size limit by evicting the
/// least recently used.
///
/// One connection behind a mutex serves every task of the process; other processes may share the file (SQLite's
/// locking and a busy timeout keep them apart). A file that is not a database, or is damaged, is replaced by an empty
/// cache when it is opened or when damage shows up later; a write interrupted by a crash is rolled back by SQLite.
/// Failures never reach the caller: a read that fails is a miss and a write that fails is skipped.
final class SQLiteStore: Sendable {
    /// The database file.
    let fileURL: URL
    /// The most bytes of entries kept (bodies, headers and keys; SQLite's own overhead comes on top).
    let sizeLimit: Int

    private struct State {
        var connection: SQLiteConnection?
        /// The recency clock: every read or write takes the next tick.
        var clock: Int64 = 0
        /// Reads not yet written back: the recency of entries read since the last write (key → tick).
        var touched: [String: Int64] = [:]
    }

    private let state: Mutex<State>
    /// 2: entries are stored without hop-by-hop fields and with repeated lines joined; older files are emptied.
    static let schemaVersion = 2

    /// Opens or creates the store, recreating a damaged file.
    init(fileURL: URL, sizeLimit: Int) throws(CacheStorageError) {
        self.fileURL = fileURL
        self.sizeLimit = max(0, sizeLimit)
        let path = fileURL.path
        try Self.prepareFile(at: fileURL)
        let connection: SQLiteConnection
        var clock: Int64 = 0
        do {
            (connection, clock) = try Self.openRecreatingIfDamaged(path: path)
        } catch  where error.meansLocked {
            throw CacheStorageError(path: path, kind: .inUse, reason: error.description)
        } catch {
            throw CacheStorageError(path: path, kind: .unusable, reason: error.description)
        }
        state = Mutex(State(connection: connection, clock: clock))
    }

    deinit {
        state.withLock { state in
            guard let connection = state.connection else { return }
            try? Self.writeTouches(&state, connection)
        }
    }

    // MARK: Reading

    /// Every stored variant for a primary key that passes ``problem(with:key:)``; a row that does not is removed.
    func responses(for url: String) -> [CachedResponse] {
        state.withLock { state in
            var found: [CachedResponse] = []
            perform(&state) { connection, state throws(SQLiteError) in
                found = []
                var tampered: [String] = []
                try connection.query(
                    "SELECT key, variant, status, headers, body, request_time, response_time FROM entries WHERE grp = ?",
                    [.text(url)]
                ) { row throws(SQLiteError) in
                    let key = row.text(0)
                    let response = CachedResponse(
                        url: url, variant: row.text(1), status: Int(row.integer(2)),
                        headers: Self.decodeHeaders(row.blob(3)), body: row.blob(4),
                        requestTime: Date(timeIntervalSince1970: row.real(5)),
                        responseTime: Date(timeIntervalSince1970: row.real(6)))
                    guard problem(with: response, key: key) == nil else { return tampered.append(key) }
                    state.clock += 1
                    state.touched[key] = state.clock
                    found.append(response)
                }
                for key in tampered { try connection.query("DELETE FROM entries WHERE key = ?", [.text(key)]) }
            }
            if state.touched.count > 1_000 {
                perform(&state) { connection, state throws(SQLiteError) in try Self.writeTouches(&state, connection) }
            }
            return found
        }
    }

    /// Why a row read back cannot be an entry this store wrote, or `nil` when it can: the file is as untrusted as
    /// the network, so a row must hold what a received response holds (``StoredResponseCheck``), under the key of
    /// the URL and variant it claims, within the size ``store(_:)`` accepts, with times that are numbers.
    func problem(with response: CachedResponse, key: String) -> String? {
        if key != Self.key(response) { return "its key is not its URL's" }
        if let problem = StoredResponseCheck.problem(status: response.status, headers: response.headers) {
            return problem
        }
        if response.cost > sizeLimit / 4 { return "it is larger than the store keeps" }
        let times = [response.requestTime, response.responseTime].map(\.timeIntervalSince1970)
        guard times.allSatisfy({ $0.isFinite && abs($0) < 1e11 }) else { return "its times are not dates" }
        return nil
    }

    /// The bytes of all entries, as counted against ``sizeLimit``.
    var byteCount: Int {
        state.withLock { state in
            var total = 0
            perform(&state) { connection, state throws(SQLiteError) in
                try connection.query("SELECT size FROM totals WHERE id = 1") { total = Int($0.integer(0)) }
            }
            return total
        }
    }

    /// The number of entries.
    var entryCount: Int {
        state.withLock { state in
            var total = 0
            perform(&state) { connection, state throws(SQLiteError) in
                try connection.query("SELECT count FROM totals WHERE id = 1") { total = Int($0.integer(0)) }
            }
            return total
        }
    }

    // MARK: Writing

    /// Stores an entry (replacing one with the same keys), then evicts the least recently used down to the limit.
    /// An entry bigger than a quarter of the limit is not stored (any older one under its keys is removed).
    func store(_ response: CachedResponse) {
        let key = Self.key(response)
        let size = response.cost
        state.withLock { state in
            perform(&state) { connection, state throws(SQLiteError) in
                try Self.transaction(connection) { () throws(SQLiteError) in
                    try Self.writeTouches(&state, connection)
                    guard size <= sizeLimit / 4 else {
                        try connection.query("DELETE FROM entries WHERE key = ?", [.text(key)])
                        return
                    }
                    state.clock += 1
                    try connection.query(
                        """
                        INSERT INTO entries (key, grp, variant, status, headers, body, request_time, response_time, size, accessed)
                        VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
                        ON CONFLICT (key) DO UPDATE SET status = excluded.status, headers = excluded.headers,
                            body = excluded.body, request_time = excluded.request_time,
                            response_time = excluded.response_time, size = excluded.size, accessed = excluded.accessed
                        """,
                        [
                            .text(key), .text(response.url), .text(response.variant), .integer(Int64(response.status)),
                            .blob(Self.encodeHeaders(response.headers)), .blob(response.body),
                            .real(response.requestTime.timeIntervalSince1970),
                            .real(response.responseTime.timeIntervalSince1970), .integer(Int64(size)),
                            .integer(state.clock),
                        ])
                    try evict(connection)
                }
            }
        }
    }

    /// Removes every variant stored for a primary key.
    func remove(url: String) {
        state.withLock { state in
            perform(&state) { connection, state throws(SQLiteError) in
                try connection.query("DELETE FROM entries WHERE grp = ?", [.text(url)])
            }
        }
    }

    /// Removes every entry.
    func removeAll() {
        state.withLock { state in
            state.touched = [:]
            perform(&state) { connection, state throws(SQLiteError) in try connection.execute("DELETE FROM entries") }
        }
    }

    /// Deletes least recently used entries until the total is within the limit.
    private func evict(_ connection: SQLiteConnection) throws(SQLiteError) {
        while true {
            var total = 0
            try connection.query("SELECT size FROM totals WHERE id = 1") { total = Int($0.integer(0)) }
            guard total > sizeLimit else { return }
            var oldest: [String] = []
            try connection.query("SELECT key FROM entries ORDER BY accessed LIMIT 16") { oldest.append($0.text(0)) }
            guard !oldest.isEmpty else { return }
            for key in oldest {
                try connection.query("DELETE FROM entries WHERE key = ?", [.text(key)])
                try connection.query("SELECT size FROM totals WHERE id = 1") { total = Int($0.integer(0)) }
                if total <= sizeLimit { return }
            }
        }
    }

    // MARK: Failure handling

    /// Runs `body` on the connection; a damaged file is replaced by a fresh one, any other failure is dropped.
    private func perform(_ state: inout State, _ body: (SQLiteConnection, inout State) throws(SQLiteError) -> Void) {
        guard let connection = state.connection else { return }
        do {
            try body(connection, &state)
        } catch  where error.meansDamagedFile {
            state.connection = nil
            state.touched = [:]
            // A file that is no longer recognisably the cache's is left alone, and the cache goes on without it.
            guard (try? SQLiteFile.replaceDamaged(at: fileURL, as: .cache)) != nil else { return }
            if let (fresh, clock) = try? Self.open(path: fileURL.path) {
                state.connection = fresh
                state.clock = clock
            }
        } catch {
            // Busy beyond the timeout, disk full, read-only: the cache is an optimisation, so carry on without it.
        }
    }

    private static func transaction(_ connection: SQLiteConnection, _ body: () throws(SQLiteError) -> Void)
        throws(SQLiteError)
    {
        try SQLiteFile.transaction(connection, body)
    }

    private static func writeTouches(_ state: inout State, _ connection: SQLiteConnection) throws(SQLiteError) {
        guard !state.touched.isEmpty else { return }
        let touched = state.touched
        state.touched = [:]
        for (key, tick) in touched {
            try connection.query("UPDATE entries SET accessed = ? WHERE key = ?", [.integer(tick), .text(key)])
        }
    }

    // MARK: Opening

    private static func openRecreatingIfDamaged(path: String) throws(SQLiteError) -> (SQLiteConnection, Int64) {
        do {
            return try open(path: path)
        } catch  where error.meansDamagedFile {
            try SQLiteFile.replaceDamagedOrRefuse(at: URL(fileURLWithPath: path), as: .cache)
            return try open(path: path)
        }
    }

    /// Opens the file, creates or upgrades the schema, and checks that the entries table reads end to end.
    private static func open(path: String) throws(SQLiteError) -> (SQLiteConnection, Int64) {
        let connection = try SQLiteConnection(path: path)
        // Before anything is written: another program's database is refused, not turned into a cache.
        try SQLiteFile.claim(connection, as: .cache)
        try connection.execute("PRAGMA journal_mode = WAL; PRAGMA synchronous = NORMAL")
        var version: Int64 = 0
        try connection.query("PRAGMA user_version") { version = $0.integer(0) }
        if version != Int64(schemaVersion) {
            try transaction(connection) { () throws(SQLiteError) in
                // Another process may have created the schema while this one waited for the lock.
                try connection.query("PRAGMA user_version") { version = $0.integer(0) }
                if version != Int64(schemaVersion) { try connection.execute(schema) }
            }
            SQLiteFile.checkpoint(connection)
        }
        // Reading every row's size walks the whole table: a damaged page shows up here, at open, as an error.
        var count: Int64 = 0
        var size: Int64 = 0
        var clock: Int64 = 0
        try connection.query("SELECT count(*), coalesce(sum(size), 0), coalesce(max(accessed), 0) FROM entries") {
            row in
            count = row.integer(0)
            size = row.integer(1)
            clock = row.integer(2)
        }
        try connection.query(
            "UPDATE totals SET size = ?, count = ? WHERE id = 1 AND (size != ? OR count != ?)",
            [.integer(size), .integer(count), .integer(size), .integer(count)])
        return (connection, clock)
    }

    /// The file made safe to open (``SQLiteFile/prepare(at:)``), its failure told as the cache's.
    private static func prepareFile(at url: URL) throws(CacheStorageError) {
        do {
            try SQLiteFile.prepare(at: url, as: .cache)
        } catch {
            throw CacheStorageError(
                path: url.path, kind: error.isSymbolicLink ? .symbolicLink : .unusable, reason: error.reason)
        }
    }

    static let schema = """
        DROP TABLE IF EXISTS entries;
        DROP TABLE IF EXISTS totals;
        CREATE TABLE entries (
            key TEXT NOT NULL UNIQUE,
            grp TEXT NOT NULL,
            variant TEXT NOT NULL,
            status INTEGER NOT NULL,
            headers BLOB NOT NULL,
            body BLOB NOT NULL,
            request_time REAL NOT NULL,
            response_time REAL NOT NULL,
            size INTEGER NOT NULL,
            accessed INTEGER NOT NULL
        );
        CREATE INDEX entries_grp ON entries (grp);
        CREATE INDEX entries_accessed ON entries (accessed);
        CREATE TABLE totals (id INTEGER PRIMARY KEY CHECK (id = 1), size INTEGER NOT NULL, count INTEGER NOT NULL);
        INSERT INTO totals VALUES (1, 0, 0);
        CREATE TRIGGER entries_inserted AFTER INSERT ON entries BEGIN
            UPDATE totals SET size = size + NEW.size, count = count + 1 WHERE id = 1;
        END;
        CREATE TRIGGER entries_deleted AFTER DELETE ON entries BEGIN
            UPDATE totals SET size = size - OLD.size, count = count - 1 WHERE id = 1;
        END;
        CREATE TRIGGER entries_resized AFTER UPDATE OF size ON entries BEGIN
            UPDATE totals SET size = size - OLD.size + NEW.size WHERE id = 1;
        END;
        PRAGMA user_version = \(schemaVersion);
        """

    // MARK: Encoding

    private static func key(_ response: CachedResponse) -> String {
        response.variant.isEmpty ? response.url : response.url + "\n" + response.variant
    }

    /// Header fields as `name:value` lines (parsed field values never contain a line break).
    static func encodeHeaders(_ headers: HTTPHeaders) -> Data {
        var text = ""
        for field in headers { text += field.name + ":" + field.value + "\n" }
        return Data(text.utf8)
    }

    static func decodeHeaders(_ data: Data) -> HTTPHeaders {
        var fields: [HTTPHeaders.Field] = []
        data.withUnsafeBytes { (buffer: UnsafeRawBufferPointer) in
            let bytes = buffer.bindMemory(to: UInt8.self)
            var lineStart = 0
            var colon: Int?
            for index in 0..<bytes.count {
                switch bytes[index] {
                case UInt8(ascii: ":") where colon == nil:
                    colon = index
                case UInt8(ascii: "\n"):
                    if let colon {
                        fields.append(
                            .init(
                                name: String(
                                    decoding: UnsafeBufferPointer(rebasing: bytes[lineStart..<colon]), as: UTF8.self),
                                value: String(
                                    decoding: UnsafeBufferPointer(rebasing: bytes[(colon + 1)..<index]), as: UTF8.self))
                        )
                    }
                    lineStart = index + 1
                    colon = nil
                default:
                    break
                }
            }
        }
        return HTTPHeaders(fields)
    }
}

/// The disk cache could not be opened: another process holds it, the path is a symbolic link, or the folder or
/// file cannot be created or read as a cache.
public struct CacheStorageError: DescribedError, Hashable {
    /// Why a cache file cannot be used.
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

    /// Creates an error.
    public init(path: String, kind: Kind = .unusable, reason: String) {
        self.path = path
        self.kind = kind
        self.reason = reason
    }

    /// One sentence: the file and why it cannot be used.
    public var userMessage: String {
        switch kind {
        case .inUse: return "The cache at \(path) is in use by another process."
        case .symbolicLink: return "The cache at \(path) is a symbolic link, which is not followed."
        case .unusable:
            return "The cache at \(path) could not be opened: \(reason)" + (reason.hasSuffix(".") ? "" : ".")
        }
    }

    /// The type, the kind, the path and the reason, for the log.
    public var debugDescription: String { "CacheStorageError.\(kind) at \(path): \(reason)" }
}
