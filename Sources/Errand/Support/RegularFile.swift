import Foundation

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// Opening a file that must be a regular file, without ever waiting on it.
///
/// `open(2)` of a FIFO waits until the other end opens it, and a device or a socket may wait too; on the curl loop
/// thread that stops every transfer, on the cooperative pool it takes a thread away from every task. So every file
/// Errand reads as a body or writes as a download is opened with `O_NONBLOCK` (which returns at once whatever the
/// file is), checked with `fstat(2)`, and refused unless it is a regular file, whose reads and writes are bounded by
/// the disk. `O_NONBLOCK` is then switched off again, although it changes nothing for a regular file on Linux or
/// Darwin, so that the descriptor behaves as a plain one everywhere.
enum RegularFile {
    /// Why a file was not opened, as the end of a sentence that starts with the file's name.
    struct Refusal: Error, Sendable, Equatable {
        /// What kind of refusal.
        enum Kind: Sendable, Equatable {
            case missing
            case folder
            case notRegular
            case tooLarge
            case system
        }

        let kind: Kind
        /// The reason, such as `is not a regular file` or `cannot be opened (Permission denied)`.
        let reason: String
    }

    /// Opens `path` with `flags` (`O_NONBLOCK` and `O_CLOEXEC` are added) and `mode`, and returns the descriptor and
    /// the file's size, or throws why not; nothing is left open after a refusal.
    static func open(_ path: String, flags: Int32, mode: mode_t = 0) throws(Refusal) -> (descriptor: Int32, size: Int) {
        var descriptor: Int32
        repeat {
            descriptor = systemOpen(path, flags | O_NONBLOCK | O_CLOEXEC, mode)
        } while descriptor < 0 && errno == EINTR
        guard descriptor >= 0 else { throw refusal(openingFailedWith: errno, at: path) }
        var status = stat()
        guard fstat(descriptor, &status) == 0 else {
            let reason = errnoText(errno)
            close(descriptor)
            throw Refusal(kind: .system, reason: "cannot be measured (\(reason))")
        }
        if let refusal = refusal(ofType: status.st_mode) {
            close(descriptor)
            throw refusal
        }
        let current = fcntl(descriptor, F_GETFL)
        if current >= 0 { _ = fcntl(descriptor, F_SETFL, current & ~O_NONBLOCK) }
        return (descriptor, Int(status.st_size))
    }

    /// The contents of the regular file at `path`, read whole when it holds at most `limit` bytes; a small file of
    /// Errand's own (a download's record), read without ever waiting on what may have been put in its place.
    static func contents(of path: String, limit: Int) throws(Refusal) -> Data {
        let (descriptor, size) = try open(path, flags: O_RDONLY)
        defer { close(descriptor) }
        guard size <= limit else {
            throw Refusal(kind: .tooLarge, reason: "is \(size) bytes, larger than the limit of \(limit) bytes")
        }
        let data = read(size, from: descriptor)
        guard data.count == size else { throw Refusal(kind: .system, reason: "could not be read whole") }
        return data
    }

    /// Up to `count` bytes from `descriptor`, fewer only at the file's end or on an error; a read a signal
    /// interrupted is resumed.
    static func read(_ count: Int, from descriptor: Int32) -> Data {
        var data = Data(count: count)
        var filled = 0
        while filled < count {
            let got = data.withUnsafeMutableBytes { buffer in
                systemRead(descriptor, buffer.baseAddress! + filled, count - filled)
            }
            if got < 0 && errno == EINTR { continue }
            guard got > 0 else { break }
            filled += got
        }
        return data.prefix(filled)
    }

    /// The refusal for a file whose mode is not a regular file's; `nil` for a regular file.
    private static func refusal(ofType mode: mode_t) -> Refusal? {
        switch mode & S_IFMT {
        case S_IFREG: nil
        case S_IFDIR: Refusal(kind: .folder, reason: "is a folder")
        default: Refusal(kind: .notRegular, reason: "is not a regular file, so its size cannot be known")
        }
    }

    /// Why opening failed: a FIFO opened for writing without a reader fails with `ENXIO`, which says less than
    /// naming what is there.
    private static func refusal(openingFailedWith code: Int32, at path: String) -> Refusal {
        if code == ENOENT { return Refusal(kind: .missing, reason: "does not exist") }
        var status = stat()
        if code != ELOOP, lstat(path, &status) == 0, let refusal = refusal(ofType: status.st_mode) { return refusal }
        return Refusal(kind: .system, reason: "cannot be opened (\(errnoText(code)))")
    }

    static func errnoText(_ code: Int32) -> String { String(cString: strerror(code)) }
}

// The system calls by other names: inside ``RegularFile`` its own `open` would hide them.
private func systemOpen(_ path: String, _ flags: Int32, _ mode: mode_t) -> Int32 { open(path, flags, mode) }
private func systemRead(_ descriptor: Int32, _ buffer: UnsafeMutableRawPointer, _ count: Int) -> Int {
    read(descriptor, buffer, count)
}
