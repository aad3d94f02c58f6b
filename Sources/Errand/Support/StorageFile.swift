import Foundation

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// The one way the SQLite files Errand keeps (the cache, the cookie jar, the Met mirror) are reached and recognised.
///
/// Nothing is created through a symbolic link that is not the system's: every component of the path is looked at
/// before any folder or file is made, so a path that is refused leaves nothing behind. Links that root owns above the
/// file (as `/var` on Apple platforms) are followed, and SQLite is handed the path with them resolved
/// (``resolvedForOpening(_:)``), since its `SQLITE_OPEN_NOFOLLOW` refuses every link. And a file is replaced only when it is recognisably the
/// library's own: its first bytes are SQLite's header, carrying this kind of file's `application_id` (or, for a file
/// written before the id was set, none and one of the layouts it wrote).
package enum StorageFile {
    /// Which of the library's files a path is meant to hold.
    package struct Kind: Sendable, Hashable {
        /// What the file is, for a sentence: `a cache`, `a cookie file`, `a mirror`.
        package var name: String
        /// The `application_id` the library writes into this kind of file's header.
        package var applicationID: Int32
        /// The `user_version`s of layouts written before the library set an `application_id`.
        package var legacyVersions: Set<Int32>
        /// The tables every such earlier file holds.
        package var legacyTables: Set<String>

        /// Creates a kind of file.
        package init(name: String, applicationID: Int32, legacyVersions: Set<Int32>, legacyTables: Set<String>) {
            self.name = name
            self.applicationID = applicationID
            self.legacyVersions = legacyVersions
            self.legacyTables = legacyTables
        }

        /// The HTTP cache's file (`application_id` "ErCa").
        package static let cache = Kind(
            name: "a cache", applicationID: 0x4572_4361, legacyVersions: [1, 2], legacyTables: ["entries", "totals"])
        /// A cookie jar's file (`application_id` "ErCk").
        package static let cookies = Kind(
            name: "a cookie file", applicationID: 0x4572_436B, legacyVersions: [1], legacyTables: ["cookies"])
        /// A mirror of The Met's collection (`application_id` "ErMi"); earlier mirrors set no `user_version`.
        package static let mirror = Kind(
            name: "a mirror", applicationID: 0x4572_4D69, legacyVersions: [0],
            legacyTables: ["run", "queue", "objects"])
    }

    /// Why a path was refused.
    package struct Refusal: Error, Sendable, Hashable {
        /// Whether a symbolic link is on the way (the file itself or a folder above it).
        package var isSymbolicLink: Bool
        /// The reason, as the end of a sentence about the file.
        package var reason: String
    }

    /// What the first bytes of a file say it is.
    package enum Identity: Sendable, Hashable {
        /// No file, or an empty one: a new file may be made there.
        case absent
        /// SQLite's header with this kind's id, or with none and a layout this kind wrote.
        case own
        /// SQLite's header with no id and no layout of this kind's: SQLite must tell (a fresh file whose first
        /// transaction is still in its write-ahead log looks so, as does another program's database).
        case undecided
        /// Not this kind of file: the reason says what it is.
        case foreign(String)
    }

    /// The first symbolic link on the way to `path` that is not the system's (a component of its absolute form, the
    /// last one included).
    ///
    /// A link that root owns in a folder above the file is the system's own (`/var` → `/private/var` holds every app
    /// container on iOS, and the temporary folder on macOS) and is followed: only root can make or change it. Any
    /// other link is refused, and so is a link as the file itself, whoever owns it.
    package static func symbolicLink(on path: String) -> String? {
        let components = absolute(path).split(separator: "/").filter { $0 != "." }
        var prefix = ""
        for (index, component) in components.enumerated() {
            prefix += "/" + component
            var status = stat()
            guard lstat(prefix, &status) == 0 else { return nil }
            guard status.st_mode & S_IFMT == S_IFLNK else { continue }
            if index == components.count - 1 || status.st_uid != 0 { return prefix }
        }
        return nil
    }

    /// `path` with the system's links in its folder resolved, for SQLite: its `SQLITE_OPEN_NOFOLLOW` refuses a link
    /// anywhere on the path, the system's included. A path with a link that is not the system's is returned as it
    /// is, so that SQLite refuses it too.
    package static func resolvedForOpening(_ path: String) -> String {
        guard symbolicLink(on: path) == nil else { return path }
        // The longest existing folder above the file is resolved; what does not exist yet holds no link.
        var existing = absolute(path).split(separator: "/", omittingEmptySubsequences: true).map(String.init)
        var rest: [String] = []
        while let last = existing.popLast() {
            rest.insert(last, at: 0)
            guard let resolved = realpath("/" + existing.joined(separator: "/"), nil) else { continue }
            defer { free(resolved) }
            let folder = String(cString: resolved)
            return (folder == "/" ? "" : folder) + "/" + rest.joined(separator: "/")
        }
        return path
    }

    /// Makes the folder at `path` and every missing folder above it (mode 0700), after checking that no component
    /// is a symbolic link other than the system's; nothing is created when one is.
    package static func makeFolder(at path: String) throws(Refusal) {
        if let link = symbolicLink(on: path) {
            throw Refusal(isSymbolicLink: true, reason: "\(link) is a symbolic link, which is not followed")
        }
        var prefix = ""
        for component in absolute(path).split(separator: "/") where component != "." {
            prefix += "/" + component
            var status = stat()
            if lstat(prefix, &status) == 0 {
                // A link here is the system's (checked above): what it leads to must be a folder.
                if status.st_mode & S_IFMT == S_IFLNK, stat(prefix, &status) != 0 {
                    throw Refusal(isSymbolicLink: true, reason: "\(prefix) is a symbolic link that leads nowhere")
                }
                guard status.st_mode & S_IFMT == S_IFDIR else {
                    throw Refusal(isSymbolicLink: false, reason: "\(prefix) is not a folder")
                }
                continue
            }
            // `mkdir` never follows a link in the last component; a folder made meanwhile by another process is fine.
            guard mkdir(prefix, 0o700) == 0 || errno == EEXIST else {
                throw Refusal(
                    isSymbolicLink: false,
                    reason: "the folder \(prefix) could not be created (\(RegularFile.errnoText(errno)))")
            }
        }
    }

    /// Makes the file's folder and an empty file (0600) when there is none, refusing a symbolic link anywhere on the
    /// path and a file that is not recognisably of this `kind`, before anything is created.
    package static func prepare(_ path: String, as kind: Kind) throws(Refusal) {
        try makeFolder(at: folder(of: path))
        if case .foreign(let what) = try identity(of: path, as: kind) {
            throw Refusal(isSymbolicLink: false, reason: notOurs(what, kind))
        }
        var descriptor: Int32
        repeat {
            descriptor = open(path, O_CREAT | O_RDWR | O_CLOEXEC | O_NOFOLLOW | O_NONBLOCK, 0o600)
        } while descriptor < 0 && errno == EINTR
        guard descriptor >= 0 else {
            let code = errno
            if code == ELOOP {
                throw Refusal(isSymbolicLink: true, reason: "it is a symbolic link, which is not followed")
            }
            throw Refusal(isSymbolicLink: false, reason: "it could not be created (\(RegularFile.errnoText(code)))")
        }
        defer { close(descriptor) }
        var status = stat()
        guard fstat(descriptor, &status) == 0, status.st_mode & S_IFMT == S_IFREG else {
            throw Refusal(isSymbolicLink: false, reason: "it is not a regular file")
        }
        fchmod(descriptor, 0o600)
    }

    /// What the file at `path` is, from its first 100 bytes (SQLite's header), read without following a link.
    package static func identity(of path: String, as kind: Kind) throws(Refusal) -> Identity {
        let header: Data
        do {
            let (descriptor, size) = try RegularFile.open(path, flags: O_RDONLY | O_NOFOLLOW)
            defer { close(descriptor) }
            if size == 0 { return .absent }
            guard size >= 100 else { return .foreign("a file of \(size) bytes that is not an SQLite database") }
            header = RegularFile.read(100, from: descriptor)
        } catch {
            switch error.kind {
            case .missing: return .absent
            case .folder: return .foreign("a folder")
            case .notRegular: return .foreign("not a regular file")
            case .system, .tooLarge:
                if symbolicLink(on: path) != nil {
                    throw Refusal(isSymbolicLink: true, reason: "it is a symbolic link, which is not followed")
                }
                throw Refusal(isSymbolicLink: false, reason: error.reason)
            }
        }
        return identity(ofHeader: header, as: kind)
    }

    /// What a database header says the file is.
    package static func identity(ofHeader header: Data, as kind: Kind) -> Identity {
        let bytes = [UInt8](header)
        guard bytes.count >= 100, bytes[0..<16].elementsEqual(Array("SQLite format 3\0".utf8)) else {
            return .foreign("a file that is not an SQLite database")
        }
        let number = { (offset: Int) in
            Int32(bitPattern: bytes[offset..<offset + 4].reduce(UInt32(0)) { $0 << 8 | UInt32($1) })
        }
        let applicationID = number(68)
        let userVersion = number(60)
        if applicationID == kind.applicationID { return .own }
        if applicationID != 0 { return .foreign("another program's SQLite database") }
        return kind.legacyVersions.contains(userVersion) ? .own : .undecided
    }

    /// Removes a damaged file and its journals, only when its header says it is this `kind`'s own: a file that is
    /// not is left as it is, and the refusal says why.
    package static func removeDamaged(_ path: String, as kind: Kind) throws(Refusal) {
        switch try identity(of: path, as: kind) {
        case .own, .absent:
            for suffix in ["", "-wal", "-shm", "-journal"] { unlink(path + suffix) }
        case .undecided:
            throw Refusal(isSymbolicLink: false, reason: notOurs("an SQLite database it cannot read", kind))
        case .foreign(let what):
            throw Refusal(isSymbolicLink: false, reason: notOurs(what, kind))
        }
    }

    /// The reason given for a file that is not of `kind`.
    package static func notOurs(_ what: String, _ kind: Kind) -> String {
        "it is \(what), not \(kind.name) of Errand's, so it is left as it is"
    }

    /// The path made absolute, as written: no link is resolved and no `..` removed, so each component is looked at
    /// in the order the system would walk it.
    private static func absolute(_ path: String) -> String {
        path.hasPrefix("/") ? path : FileManager.default.currentDirectoryPath + "/" + path
    }

    /// The folder holding `path`, as written.
    private static func folder(of path: String) -> String {
        let full = absolute(path)
        guard let slash = full.lastIndex(of: "/"), slash != full.startIndex else { return "/" }
        return String(full[..<slash])
    }
}
