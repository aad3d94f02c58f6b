import Errand
import Foundation
import MetMuseum
import Synchronization

/// A mirror of The Met's collection on disk: one SQLite database in a folder, with the objects, their full-text
/// index and the state of the run that fills it.
///
/// Open one with ``init(directory:)``; ``CollectionMirror`` fills it, `MetClient(mirror:)` answers the SDK's
/// requests from it. The file is in WAL mode and every batch is one transaction, so a process killed at any moment
/// leaves the database consistent: what a batch stored is there whole or not at all. One instance can be shared
/// between tasks (calls are serialised); several processes may read while one writes.
public final class MirrorStore: Sendable {
    /// The database's name inside the mirror's folder.
    public static let fileName = "met-mirror.sqlite"

    /// The database file.
    public let file: URL
    let connection: Mutex<MirrorSQLite>

    /// Opens the mirror in `directory`, creating the folder and the database when they do not exist.
    ///
    /// - Throws: ``MirrorStoreError`` when the folder or file cannot be made or opened, or the file is a mirror of
    ///   another schema version.
    public convenience init(directory: URL) throws(MirrorStoreError) {
        try self.init(directory: directory, maxPageCount: nil)
    }

    /// Opens the mirror, its size capped at `maxPageCount` pages (4 KiB each) when given, which tests use to stand
    /// in for a full disk.
    init(directory: URL, maxPageCount: Int?) throws(MirrorStoreError) {
        file = directory.appendingPathComponent(Self.fileName)
        do {
            // No folder or file is made through a symbolic link, and a file not recognisably a mirror is refused.
            try StorageFile.prepare(file.path, as: .mirror)
        } catch {
            throw MirrorStoreError(code: 14, message: "cannot use \(file.path): \(error.reason)")
        }
        let sqlite = try MirrorSQLite(path: file.path)
        try Self.claim(sqlite, file: file)
        try sqlite.execute(MirrorSchema.statements)
        // NORMAL in WAL mode: a killed process loses nothing committed; only a power cut may lose the last commits,
        // and never consistency.
        try sqlite.execute("PRAGMA synchronous = NORMAL")
        if let maxPageCount { try sqlite.execute("PRAGMA max_page_count = \(maxPageCount)") }
        try Self.checkVersion(sqlite)
        connection = Mutex(sqlite)
    }

    /// Checks, before anything is written, that the file is new or a mirror (SQLite reads its write-ahead log too),
    /// and marks it as one.
    private static func claim(_ sqlite: MirrorSQLite, file: URL) throws(MirrorStoreError) {
        let kind = StorageFile.Kind.mirror
        let refuse = { (what: String) in
            MirrorStoreError(code: 14, message: "cannot use \(file.path): \(StorageFile.notOurs(what, kind))")
        }
        let applicationID: Int
        var tables: Set<String> = []
        do {
            applicationID = try sqlite.integer("PRAGMA application_id")
            try sqlite.query("SELECT name FROM sqlite_master WHERE type = 'table'") { row in
                if let name = row.text(0) { tables.insert(name) }
            }
        } catch let error as MirrorStoreError {
            throw error
        } catch {
            throw MirrorStoreError(code: 1, message: "\(error)")
        }
        if applicationID == Int(kind.applicationID) { return }
        guard applicationID == 0 else { throw refuse("another program's SQLite database") }
        guard tables.isEmpty || kind.legacyTables.isSubset(of: tables) else {
            throw refuse("an SQLite database of other tables")
        }
        try sqlite.execute("PRAGMA application_id = \(kind.applicationID)")
    }

    private static func checkVersion(_ sqlite: MirrorSQLite) throws(MirrorStoreError) {
        do {
            var stored: String?
            try sqlite.query("SELECT value FROM run WHERE key = 'schema'") { stored = $0.text(0) }
            guard let stored else {
                try sqlite.query(
                    "INSERT INTO run (key, value) VALUES ('schema', ?)", [.text(String(MirrorSchema.version))])
                return
            }
            guard stored == String(MirrorSchema.version) else {
                throw MirrorStoreError(
                    code: 26,
                    message: "the mirror has schema version \(stored); this version reads \(MirrorSchema.version)")
            }
        } catch let error as MirrorStoreError {
            throw error
        } catch {
            throw MirrorStoreError(code: 1, message: "\(error)")
        }
    }

    /// Runs `body` with the connection, turning any failure into a ``MirrorStoreError``.
    func access<T>(_ body: (MirrorSQLite) throws -> T) throws(MirrorStoreError) -> T {
        do {
            return try connection.withLock { try body($0) }
        } catch let error as MirrorStoreError {
            throw error
        } catch {
            throw MirrorStoreError(code: 1, message: "\(error)")
        }
    }

    // MARK: What the mirror holds

    /// Where the mirror stands between runs.
    public func phase() throws(MirrorStoreError) -> MirrorPhase {
        try access { sqlite in
            switch try Self.value("phase", in: sqlite) {
            case "fetching-full": return .fetching(.full)
            case "fetching-update": return .fetching(.update)
            case "complete": return .complete
            default: return .empty
            }
        }
    }

    /// How many listed objects are in each state.
    public func counts() throws(MirrorStoreError) -> MirrorCounts {
        try access { sqlite in
            var counts = MirrorCounts()
            try sqlite.query("SELECT status, count(*) FROM queue GROUP BY status") { row in
                let count = Int(row.integer(1))
                switch row.text(0) {
                case "pending": counts.pending = count
                case "fetched": counts.fetched = count
                case "skipped": counts.skipped = count
                case "failed": counts.failed = count
                default: break
                }
            }
            return counts
        }
    }

    /// The object's JSON exactly as the Met served it, or `nil` when the mirror does not hold it.
    public func objectJSON(id: Int) throws(MirrorStoreError) -> Data? {
        try access { sqlite in
            var json: Data?
            try sqlite.query("SELECT json FROM objects WHERE id = ?", [.int(id)]) { json = $0.data(0) }
            return json
        }
    }

    /// Why a listed object is not in the mirror: the Met's message when it was skipped, `nil` otherwise.
    func skipReason(id: Int) throws(MirrorStoreError) -> String? {
        try access { sqlite in
            var reason: String?
            try sqlite.query("SELECT reason FROM queue WHERE id = ? AND status = 'skipped'", [.int(id)]) {
                reason = $0.text(0)
            }
            return reason
        }
    }

    /// The departments the Met listed when the mirror was last filled.
    public func departments() throws(MirrorStoreError) -> [Department] {
        try access { sqlite in
            var departments: [Department] = []
            try sqlite.query("SELECT id, name FROM departments ORDER BY id") { row in
                departments.append(Department(id: Int(row.integer(0)), displayName: row.text(1) ?? ""))
            }
            return departments
        }
    }

    /// The IDs of the stored objects, optionally only those whose record changed on or after a day
    /// (`YYYY-MM-DD`) or held by some departments: what the Met's `objects` list answers, from the mirror.
    public func objectIDs(updatedSince day: String? = nil, departmentIDs: [Int] = []) throws(MirrorStoreError)
        -> [Int]
    {
        try access { sqlite in
            var sql = "SELECT id FROM objects WHERE 1"
            var parameters: [SQLValue] = []
            if let day {
                sql += " AND metadata_date >= ?"
                parameters.append(.text(day))
            }
            if !departmentIDs.isEmpty {
                sql += " AND department IN (SELECT name FROM departments WHERE id IN ("
                sql += departmentIDs.map { _ in "?" }.joined(separator: ",") + "))"
                parameters += departmentIDs.map(SQLValue.int)
            }
            var ids: [Int] = []
            try sqlite.query(sql + " ORDER BY id", parameters) { ids.append(Int($0.integer(0))) }
            return ids
        }
    }

    /// SQLite's own check of the whole file: `["ok"]` when the database is sound.
    public func integrityCheck() throws(MirrorStoreError) -> [String] {
        try access { sqlite in
            var lines: [String] = []
            try sqlite.query("PRAGMA integrity_check") { lines.append($0.text(0) ?? "") }
            try sqlite.query("INSERT INTO objects_fts (objects_fts) VALUES ('integrity-check')")
            return lines
        }
    }

    /// The database file's size in bytes, its write-ahead log included.
    public func fileSize() -> Int {
        let sizes = [file.path, file.path + "-wal"].map { path in
            (try? FileManager.default.attributesOfItem(atPath: path)[.size] as? Int) ?? 0
        }
        return sizes.reduce(0, +)
    }

    static func value(_ key: String, in sqlite: MirrorSQLite) throws -> String? {
        var value: String?
        try sqlite.query("SELECT value FROM run WHERE key = ?", [.text(key)]) { value = $0.text(0) }
        return value
    }

    static func setValue(_ value: String?, for key: String, in sqlite: MirrorSQLite) throws {
        guard let value else { return try sqlite.query("DELETE FROM run WHERE key = ?", [.text(key)]) }
        try sqlite.query("INSERT OR REPLACE INTO run (key, value) VALUES (?, ?)", [.text(key), .text(value)])
    }
}

/// How many listed objects of a mirror are in each state.
public struct MirrorCounts: Sendable, Hashable {
    /// Listed and still to fetch.
    public var pending = 0
    /// Stored.
    public var fetched = 0
    /// Not served by the Met (not found, or not available through the API).
    public var skipped = 0
    /// Served but unreadable; the next run retries them.
    public var failed = 0

    /// Creates counts.
    public init(pending: Int = 0, fetched: Int = 0, skipped: Int = 0, failed: Int = 0) {
        self.pending = pending
        self.fetched = fetched
        self.skipped = skipped
        self.failed = failed
    }

    /// Every listed object.
    public var listed: Int { pending + fetched + skipped + failed }
}
