import Errand
import CSQLite
import Foundation

/// A failed SQLite call on a mirror: the result code and SQLite's message.
public struct MirrorStoreError: DescribedError {
    /// The extended result code (`SQLITE_FULL`, `SQLITE_CORRUPT`, …).
    public var code: Int32
    /// SQLite's message, or what the mirror found wrong.
    public var message: String

    /// Creates an error.
    public init(code: Int32, message: String) {
        self.code = code
        self.message = message
    }

    /// Whether the disk (or the database's size limit) is full.
    public var meansDiskFull: Bool { code & 0xFF == SQLITE_FULL }

    /// One sentence for the user: the disk is full, or the mirror's database could not be used.
    public var userMessage: String {
        meansDiskFull
            ? "The disk is full: the mirror could not store more."
            : "The mirror's database could not be used: \(message)" + (message.hasSuffix(".") ? "" : ".")
    }

    /// SQLite's result code and message, for the log.
    public var debugDescription: String { "MirrorStoreError: SQLite error \(code): \(message)" }
}

/// A value bound to a statement parameter.
enum SQLValue {
    case integer(Int64)
    case real(Double)
    case text(String)
    case blob(Data)
    case null
}

extension SQLValue {
    /// Text, or NULL when there is none.
    static func optional(_ text: String?) -> SQLValue { text.map(SQLValue.text) ?? .null }

    /// An integer from a Swift `Int`.
    static func int(_ value: Int) -> SQLValue { .integer(Int64(value)) }

    /// 1 or 0.
    static func bool(_ value: Bool) -> SQLValue { .integer(value ? 1 : 0) }
}

/// One SQLite connection with cached prepared statements. Not thread-safe: its owner serialises every call.
///
/// Unchecked `Sendable` because its only owner, ``MirrorStore``, keeps it in a `Mutex` and touches it only inside
/// `withLock`; no reference escapes that closure.
final class MirrorSQLite: @unchecked Sendable {
    private let handle: OpaquePointer
    private var statements: [String: OpaquePointer] = [:]

    /// Opens (or creates) the file; a symbolic link other than the system's is refused, as the cache refuses it.
    init(path: String) throws(MirrorStoreError) {
        var db: OpaquePointer?
        let flags = SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE | SQLITE_OPEN_NOMUTEX | SQLITE_OPEN_NOFOLLOW
        let code = sqlite3_open_v2(StorageFile.resolvedForOpening(path), &db, flags, nil)
        guard code == SQLITE_OK, let db else {
            let message = db.map { String(cString: sqlite3_errmsg($0)) } ?? "cannot open \(path)"
            sqlite3_close_v2(db)
            throw MirrorStoreError(code: code, message: message)
        }
        handle = db
        sqlite3_extended_result_codes(db, 1)
        // A reader (met search --mirror) may look while a mirror run commits a batch.
        sqlite3_busy_timeout(db, 5_000)
    }

    deinit {
        for statement in statements.values { sqlite3_finalize(statement) }
        sqlite3_close_v2(handle)
    }

    /// Runs SQL that returns no rows (several statements allowed).
    func execute(_ sql: String) throws(MirrorStoreError) {
        var message: UnsafeMutablePointer<CChar>?
        let code = sqlite3_exec(handle, sql, nil, nil, &message)
        guard code == SQLITE_OK else {
            let text = message.map { String(cString: $0) } ?? errorMessage
            sqlite3_free(message)
            throw MirrorStoreError(code: sqlite3_extended_errcode(handle), message: text)
        }
    }

    /// Runs a statement with parameters, handing each row to `row`.
    func query(_ sql: String, _ parameters: [SQLValue] = [], row: (MirrorRow) throws -> Void = { _ in }) throws {
        let statement = try prepared(sql)
        defer {
            sqlite3_reset(statement)
            sqlite3_clear_bindings(statement)
        }
        for (index, parameter) in parameters.enumerated() {
            try check(bind(parameter, to: statement, at: Int32(index + 1)))
        }
        while true {
            let code = sqlite3_step(statement)
            if code == SQLITE_DONE { return }
            guard code == SQLITE_ROW else {
                throw MirrorStoreError(code: sqlite3_extended_errcode(handle), message: errorMessage)
            }
            try row(MirrorRow(statement: statement))
        }
    }

    /// The first column of the first row as an integer, 0 when there is no row.
    func integer(_ sql: String, _ parameters: [SQLValue] = []) throws -> Int {
        var value = 0
        try query(sql, parameters) { value = Int($0.integer(0)) }
        return value
    }

    /// Runs `body` in one transaction: all of it is stored, or none of it.
    func transaction<T>(_ body: () throws -> T) throws -> T {
        try execute("BEGIN IMMEDIATE")
        do {
            let value = try body()
            try execute("COMMIT")
            return value
        } catch {
            try? execute("ROLLBACK")
            throw error
        }
    }

    /// Rows changed by the last statement.
    var changes: Int { Int(sqlite3_changes(handle)) }

    private func prepared(_ sql: String) throws(MirrorStoreError) -> OpaquePointer {
        if let statement = statements[sql] { return statement }
        var statement: OpaquePointer?
        let code = sqlite3_prepare_v2(handle, sql, -1, &statement, nil)
        guard code == SQLITE_OK, let statement else { throw MirrorStoreError(code: code, message: errorMessage) }
        statements[sql] = statement
        return statement
    }

    private func bind(_ value: SQLValue, to statement: OpaquePointer, at index: Int32) -> Int32 {
        switch value {
        case .integer(let number): return sqlite3_bind_int64(statement, index, number)
        case .real(let number): return sqlite3_bind_double(statement, index, number)
        case .text(let text): return sqlite3_bind_text(statement, index, text, -1, errand_sqlite_transient())
        case .blob(let data):
            return data.withUnsafeBytes { bytes -> Int32 in
                guard let base = bytes.baseAddress, !bytes.isEmpty else {
                    return sqlite3_bind_zeroblob(statement, index, 0)
                }
                return sqlite3_bind_blob64(
                    statement, index, base, sqlite3_uint64(bytes.count), errand_sqlite_transient())
            }
        case .null: return sqlite3_bind_null(statement, index)
        }
    }

    private func check(_ code: Int32) throws(MirrorStoreError) {
        guard code == SQLITE_OK else { throw MirrorStoreError(code: code, message: errorMessage) }
    }

    private var errorMessage: String { String(cString: sqlite3_errmsg(handle)) }
}

/// The current row of a running statement; valid only inside the `row` closure.
struct MirrorRow {
    fileprivate let statement: OpaquePointer

    func integer(_ column: Int32) -> Int64 { sqlite3_column_int64(statement, column) }

    func real(_ column: Int32) -> Double { sqlite3_column_double(statement, column) }

    func isNull(_ column: Int32) -> Bool { sqlite3_column_type(statement, column) == SQLITE_NULL }

    func text(_ column: Int32) -> String? {
        guard let text = sqlite3_column_text(statement, column) else { return nil }
        return String(cString: text)
    }

    func data(_ column: Int32) -> Data {
        let bytes = sqlite3_column_blob(statement, column)
        let count = Int(sqlite3_column_bytes(statement, column))
        guard count > 0, let bytes else { return Data() }
        return Data(bytes: bytes, count: count)
    }
}
