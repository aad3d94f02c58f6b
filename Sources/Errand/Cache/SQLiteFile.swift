import CSQLite
import Foundation

/// What the SQLite files Errand keeps (the cache, the cookie jar) share: how the file is made safe before SQLite
/// opens it, how a damaged one is removed, and transactions.
enum SQLiteFile {
    /// Why a file could not be prepared.
    struct Problem: Error {
        /// Whether the path is a symbolic link (else the folder or the file could not be made).
        var isSymbolicLink: Bool
        var reason: String
    }

    /// Creates the missing folders (0700) and an empty file (0600) so SQLite and its WAL files never use wider
    /// permissions.
    ///
    /// A symbolic link anywhere on the path is refused before anything is created, never followed: setting the mode
    /// through it would change whatever file it points to, and SQLite would write into that file. A file that is not
    /// recognisably `kind`'s is refused too (``StorageFile/prepare(_:as:)``).
    static func prepare(at url: URL, as kind: StorageFile.Kind) throws(Problem) {
        do {
            try StorageFile.prepare(url.path, as: kind)
        } catch {
            throw Problem(isSymbolicLink: error.isSymbolicLink, reason: error.reason)
        }
    }

    /// Removes a damaged database and its journal files, and makes an empty one in its place; a file whose header
    /// does not say it is `kind`'s is left as it is and refused.
    static func replaceDamaged(at url: URL, as kind: StorageFile.Kind) throws(Problem) {
        do {
            try StorageFile.removeDamaged(url.path, as: kind)
        } catch {
            throw Problem(isSymbolicLink: error.isSymbolicLink, reason: error.reason)
        }
        try prepare(at: url, as: kind)
    }

    /// ``replaceDamaged(at:as:)``, its refusal told as a failure to open the file.
    static func replaceDamagedOrRefuse(at url: URL, as kind: StorageFile.Kind) throws(SQLiteError) {
        do {
            try replaceDamaged(at: url, as: kind)
        } catch {
            throw SQLiteError(refusal: error.reason)
        }
    }

    /// Checks, now that SQLite reads the file (its write-ahead log included), that it is new or `kind`'s, and marks
    /// it as `kind`'s; another program's database is refused before anything is written to it.
    static func claim(_ connection: SQLiteConnection, as kind: StorageFile.Kind) throws(SQLiteError) {
        var applicationID: Int64 = 0
        try connection.query("PRAGMA application_id") { applicationID = $0.integer(0) }
        if applicationID == Int64(kind.applicationID) { return }
        guard applicationID == 0 else {
            throw SQLiteError(refusal: StorageFile.notOurs("another program's SQLite database", kind))
        }
        var version: Int64 = 0
        try connection.query("PRAGMA user_version") { version = $0.integer(0) }
        var tables: Set<String> = []
        try connection.query("SELECT name FROM sqlite_master WHERE type = 'table'") { tables.insert($0.text(0)) }
        let isLegacy =
            Int32(exactly: version).map(kind.legacyVersions.contains) == true && kind.legacyTables.isSubset(of: tables)
        guard tables.isEmpty || isLegacy else {
            throw SQLiteError(refusal: StorageFile.notOurs("an SQLite database of other tables", kind))
        }
        try connection.execute("PRAGMA application_id = \(kind.applicationID)")
    }

    /// Writes what the write-ahead log holds into the file, so that its header carries the `application_id` for a
    /// later ``replaceDamaged(at:as:)`` to recognise; a reader elsewhere that keeps the log busy only delays it.
    static func checkpoint(_ connection: SQLiteConnection) {
        try? connection.execute("PRAGMA wal_checkpoint(PASSIVE)")
    }

    /// Removes the database and its journal files.
    static func remove(at path: String) {
        for suffix in ["", "-wal", "-shm", "-journal"] { unlink(path + suffix) }
    }

    /// Runs `body` in an immediate transaction: committed when it returns, rolled back when it throws.
    static func transaction(_ connection: SQLiteConnection, _ body: () throws(SQLiteError) -> Void)
        throws(SQLiteError)
    {
        try connection.execute("BEGIN IMMEDIATE")
        do {
            try body()
            try connection.execute("COMMIT")
        } catch {
            try? connection.execute("ROLLBACK")
            throw error
        }
    }
}
