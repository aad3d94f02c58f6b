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

    /// Creates the folder (0700) and an empty file (0600) so SQLite and its WAL files never use wider permissions.
    ///
    /// A symbolic link in the file's place is refused, never followed: setting the mode through it would change
    /// whatever file it points to, and SQLite would write into that file.
    static func prepare(at url: URL) throws(Problem) {
        let path = url.path
        do {
            try FileManager.default.createDirectory(
                at: url.deletingLastPathComponent(), withIntermediateDirectories: true,
                attributes: [.posixPermissions: 0o700])
        } catch {
            throw Problem(isSymbolicLink: false, reason: "its folder could not be created (\(error))")
        }
        let descriptor = Foundation.open(path, O_CREAT | O_RDWR | O_CLOEXEC | O_NOFOLLOW, 0o600)
        guard descriptor >= 0 else {
            let code = errno
            if code == ELOOP { throw Problem(isSymbolicLink: true, reason: "it is a symbolic link") }
            throw Problem(
                isSymbolicLink: false, reason: "the file could not be created (\(String(cString: strerror(code))))")
        }
        fchmod(descriptor, 0o600)
        close(descriptor)
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
