import CSQLite
import Foundation

/// A failed SQLite call: the result code and SQLite's message.
struct SQLiteError: Error, CustomStringConvertible {
    /// The primary result code (`SQLITE_CORRUPT`, `SQLITE_BUSY`, …).
    var code: Int32
    /// SQLite's message, or the reason a file was refused.
    var message: String
    /// Whether the library refused the file (not its own), rather than SQLite failing.
    var isRefusal = false

    init(code: Int32, message: String) {
        self.code = code
        self.message = message
    }

    /// The library refuses the file: `reason` ends a sentence about it.
    init(refusal reason: String) {
        self.init(code: SQLITE_CANTOPEN, message: reason)
        isRefusal = true
    }

    /// Whether another connection's lock kept this one out beyond the busy timeout.
    var meansLocked: Bool {
        let primary = code & 0xFF
        return primary == SQLITE_BUSY || primary == SQLITE_LOCKED
    }

    /// Whether the file is damaged or not a database: the only failures worth recreating the file for.
    var meansDamagedFile: Bool {
        let primary = code & 0xFF
        return primary == SQLITE_CORRUPT || primary == SQLITE_NOTADB || primary == SQLITE_IOERR
            || primary == SQLITE_FORMAT
    }

    var description: String { isRefusal ? message : "SQLite error \(code): \(message)" }
}

/// One SQLite connection with a cache of prepared statements. Not thread-safe: its owner serializes access.
final class SQLiteConnection {
    private let handle: OpaquePointer
    private var statements: [String: OpaquePointer] = [:]

    /// How long a statement waits for another connection's lock. A writer holds it for the few milliseconds of a
    /// transaction; a process that holds it longer holds it for good, and waiting would only stall the caller.
    static let busyTimeoutMilliseconds: Int32 = 250

    /// Opens (or creates) the database file; a symbolic link other than the system's is refused (``StorageFile``).
    init(path: String) throws(SQLiteError) {
        var db: OpaquePointer?
        let flags = SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE | SQLITE_OPEN_NOMUTEX | SQLITE_OPEN_NOFOLLOW
        let code = sqlite3_open_v2(StorageFile.resolvedForOpening(path), &db, flags, nil)
        guard code == SQLITE_OK, let db else {
            let message = db.map { String(cString: sqlite3_errmsg($0)) } ?? "cannot open"
            sqlite3_close_v2(db)
            throw SQLiteError(code: code, message: message)
        }
        handle = db
        sqlite3_extended_result_codes(db, 1)
        sqlite3_busy_timeout(db, Self.busyTimeoutMilliseconds)
    }

    deinit {
        for statement in statements.values { sqlite3_finalize(statement) }
        sqlite3_close_v2(handle)
    }

    /// Runs SQL that returns no rows (several statements allowed).
    func execute(_ sql: String) throws(SQLiteError) {
        var message: UnsafeMutablePointer<CChar>?
        let code = sqlite3_exec(handle, sql, nil, nil, &message)
        guard code == SQLITE_OK else {
            let text = message.map { String(cString: $0) } ?? errorMessage
            sqlite3_free(message)
            throw SQLiteError(code: code, message: text)
        }
    }

    /// Runs a prepared statement with its parameters and hands each row to `row`.
    func query(_ sql: String, _ parameters: [SQLiteValue] = [], row: (SQLiteRow) throws(SQLiteError) -> Void = { _ in })
        throws(SQLiteError)
    {
        let statement = try prepared(sql)
        defer {
            sqlite3_reset(statement)
            sqlite3_clear_bindings(statement)
        }
        for (index, parameter) in parameters.enumerated() {
            try check(parameter.bind(to: statement, at: Int32(index + 1)))
        }
        while true {
            let code = sqlite3_step(statement)
            if code == SQLITE_DONE { return }
            guard code == SQLITE_ROW else { throw SQLiteError(code: code, message: errorMessage) }
            try row(SQLiteRow(statement: statement))
        }
    }

    /// Rows changed by the last statement.
    var changes: Int { Int(sqlite3_changes(handle)) }

    private func prepared(_ sql: String) throws(SQLiteError) -> OpaquePointer {
        if let statement = statements[sql] { return statement }
        var statement: OpaquePointer?
        let code = sqlite3_prepare_v2(handle, sql, -1, &statement, nil)
        guard code == SQLITE_OK, let statement else { throw SQLiteError(code: code, message: errorMessage) }
        statements[sql] = statement
        return statement
    }

    private func check(_ code: Int32) throws(SQLiteError) {
        guard code == SQLITE_OK else { throw SQLiteError(code: code, message: errorMessage) }
    }

    private var errorMessage: String { String(cString: sqlite3_errmsg(handle)) }
}

/// A value bound to a statement parameter.
enum SQLiteValue {
    case integer(Int64)
    case real(Double)
    case text(String)
    case blob(Data)

    fileprivate func bind(to statement: OpaquePointer, at index: Int32) -> Int32 {
        switch self {
        case .integer(let value):
            return sqlite3_bind_int64(statement, index, value)
        case .real(let value):
            return sqlite3_bind_double(statement, index, value)
        case .text(let value):
            return sqlite3_bind_text(statement, index, value, -1, errand_sqlite_transient())
        case .blob(let value):
            return value.withUnsafeBytes { bytes -> Int32 in
                guard let base = bytes.baseAddress, !bytes.isEmpty else {
                    return sqlite3_bind_zeroblob(statement, index, 0)
                }
                return sqlite3_bind_blob64(
                    statement, index, base, sqlite3_uint64(bytes.count), errand_sqlite_transient())
            }
        }
    }
}

/// The current row of a running statement; valid only inside the `row` closure.
struct SQLiteRow {
    fileprivate let statement: OpaquePointer

    func integer(_ column: Int32) -> Int64 { sqlite3_column_int64(statement, column) }

    func real(_ column: Int32) -> Double { sqlite3_column_double(statement, column) }

    func text(_ column: Int32) -> String {
        guard let text = sqlite3_column_text(statement, column) else { return "" }
        return String(cString: text)
    }

    func blob(_ column: Int32) -> Data {
        // The pointer first, then the size: that order never triggers a type conversion that would move the bytes.
        let bytes = sqlite3_column_blob(statement, column)
        let count = Int(sqlite3_column_bytes(statement, column))
        guard count > 0, let bytes else { return Data() }
        return Data(bytes: bytes, count: count)
    }
}
