import Foundation
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

// The C functions by other names: inside ``DownloadFile`` its own methods would hide them.
private func systemOpen(_ path: UnsafePointer<CChar>, _ flags: Int32, _ mode: mode_t = 0) -> Int32 {
    open(path, flags, mode)
}
private func systemWrite(_ fd: Int32, _ bytes: UnsafeRawPointer, _ count: Int) -> Int { write(fd, bytes, count) }

/// The files of a download beside its destination: the partial file the body is written into and a small record of
/// the version it holds (its validator and length), both hidden (``DownloadFileNames``).
///
/// The destination itself is only ever replaced by `rename(2)` of a complete, flushed partial file, so it is either the
/// complete new file or what it was before — whatever happens to the process meanwhile.
///
/// One download at a time owns the partial file: ``lock()`` takes an exclusive `flock(2)` on it for the whole download,
/// and a second download to the same destination fails at once instead of writing into the same file. The lock
/// belongs to the open file, so it is released when the download ends, and by the kernel when its process dies.
final class DownloadFile {
    /// What the record beside a partial file says about it.
    struct Record: Codable, Sendable {
        var validator: DownloadStateMachine.Validator?
        var length: Int64?
        var url: String
        /// The destination's name: a shortened long name could, however unlikely, be another destination's.
        var name: String

        /// The version the partial file holds, when the record names both its validator and its length.
        var version: DownloadStateMachine.Version? {
            guard let validator, let length else { return nil }
            return DownloadStateMachine.Version(validator: validator, length: length)
        }
    }

    let destination: URL
    let partial: URL
    let record: URL
    private let recordDraft: URL
    /// The request's URL (redacted), which every failure names.
    private let url: URL?
    private var descriptor: Int32 = -1

    init(destination: URL, url: URL? = nil) {
        self.destination = destination
        self.url = url
        let directory = destination.deletingLastPathComponent()
        let names = DownloadFileNames(destinationName: destination.lastPathComponent)
        partial = directory.appendingPathComponent(names.partial)
        record = directory.appendingPathComponent(names.record)
        recordDraft = directory.appendingPathComponent(names.recordDraft)
    }

    deinit {
        if descriptor >= 0 { close(descriptor) }
    }

    /// Opens the partial file (creating it empty) and takes the lock on it; fails at once when another download holds
    /// it.
    func lock() throws(ErrandError) {
        // Bounded: each round that fails to match lost a race with a download that just committed or discarded.
        for _ in 0..<8 {
            // Never through a symbolic link someone put in the partial file's place, and never waiting in `open` on a
            // FIFO there (RegularFile); no truncation before the lock is ours, since the bytes may be another
            // download's.
            let fd: Int32
            do {
                fd = try RegularFile.open(partial.path, flags: O_RDWR | O_CREAT | O_NOFOLLOW, mode: 0o644).descriptor
            } catch {
                throw failure("\(partial.path) \(error.reason)")
            }
            var opened = stat()
            guard fstat(fd, &opened) == 0 else {
                close(fd)
                throw failure("cannot measure \(partial.path): \(Self.errnoText())")
            }
            guard flock(fd, LOCK_EX | LOCK_NB) == 0 else {
                let code = errno
                close(fd)
                if code == EWOULDBLOCK {
                    throw failure(
                        "another download to \(destination.path) is in progress (it holds \(partial.lastPathComponent))"
                    )
                }
                throw failure("cannot lock \(partial.path): \(String(cString: strerror(code)))")
            }
            // Between `open` and `flock` the holder may have renamed the file onto the destination or removed it: the
            // lock counts only while the name still leads to the file locked.
            if isNamed(opened) {
                descriptor = fd
                return
            }
            close(fd)
        }
        throw failure("cannot lock \(partial.path): it keeps being replaced")
    }

    /// The size of the partial file and what its record says, when both exist and the record is for `url` and
    /// this destination.
    func existingPartial(for url: URL) -> (size: Int64, record: Record)? {
        var status = stat()
        let found = partial.withUnsafeFileSystemRepresentation { path in path.map { lstat($0, &status) == 0 } ?? false }
        guard found, status.st_mode & S_IFMT == S_IFREG,
            // Read without waiting on a FIFO put in the record's place: such a record counts as none.
            let data = try? RegularFile.contents(of: record.path, limit: 1 << 20),
            let saved = try? JSONDecoder().decode(Record.self, from: data),
            saved.url == url.absoluteString, saved.name == destination.lastPathComponent
        else { return nil }
        return (Int64(status.st_size), saved)
    }

    /// Writes the record of the version about to be written, replacing the old one atomically (a draft renamed over
    /// it, so a crash leaves the old record or the new one).
    func saveRecord(_ saved: Record) throws(ErrandError) {
        let data: Data
        do {
            data = try JSONEncoder().encode(saved)
        } catch {
            throw failure("cannot encode the record \(record.path): \(error)")
        }
        let flags = O_WRONLY | O_CREAT | O_TRUNC | O_NOFOLLOW | O_CLOEXEC | O_NONBLOCK
        let fd = recordDraft.withUnsafeFileSystemRepresentation { path in
            path.map { systemOpen($0, flags, 0o644) } ?? -1
        }
        guard fd >= 0 else {
            let code = errno
            throw fileFailure("cannot write \(recordDraft.path)", code)
        }
        let code = Self.writeAll(fd, data)
        close(fd)
        guard code == 0 else {
            try? FileManager.default.removeItem(at: recordDraft)
            throw fileFailure("cannot write \(recordDraft.path)", code)
        }
        let moved = recordDraft.withUnsafeFileSystemRepresentation { from in
            record.withUnsafeFileSystemRepresentation { to in
                guard let from, let to else { return false }
                return rename(from, to) == 0
            }
        }
        guard moved else {
            let code = errno
            throw fileFailure("cannot replace \(record.path)", code)
        }
    }

    /// Makes the locked partial file ready for writing at `offset`: 0 empties it; a larger offset keeps the bytes
    /// before it.
    func position(at offset: Int64) throws(ErrandError) {
        guard descriptor >= 0 else { throw failure("\(partial.path) is not open") }
        // Bytes past the offset (from a version that was longer) would otherwise survive an append.
        guard ftruncate(descriptor, off_t(offset)) == 0, lseek(descriptor, off_t(offset), SEEK_SET) == off_t(offset)
        else {
            let code = errno
            throw fileFailure("cannot position \(partial.path) at \(offset)", code)
        }
    }

    /// Appends bytes to the partial file.
    func write(_ data: Data) throws(ErrandError) {
        let code = Self.writeAll(descriptor, data)
        guard code == 0 else { throw fileFailure("cannot write \(partial.path)", code) }
    }

    /// Flushes the partial file to disk, moves it onto the destination and removes the record; the directory is
    /// flushed too, so the rename survives a crash. The lock goes with the file.
    func commit() async throws(ErrandError) {
        guard descriptor >= 0 else { throw failure("\(partial.path) is not open") }
        let code = await Self.flushed(descriptor)
        guard code == 0 else { throw fileFailure("cannot flush \(partial.path)", code) }
        let moved = partial.withUnsafeFileSystemRepresentation { from in
            destination.withUnsafeFileSystemRepresentation { to in
                guard let from, let to else { return false }
                return rename(from, to) == 0
            }
        }
        guard moved else { throw failure("cannot move the download to \(destination.path): \(Self.errnoText())") }
        try? FileManager.default.removeItem(at: record)
        closeFile()
        let directory = destination.deletingLastPathComponent()
        let fd = directory.withUnsafeFileSystemRepresentation { path in path.map { systemOpen($0, O_RDONLY) } ?? -1 }
        if fd >= 0 {
            _ = await Self.flushed(fd)
            close(fd)
        }
    }

    /// `fsync(2)` on a thread of its own; 0, or its `errno`. On a busy disk it takes up to seconds, and on Swift's
    /// cooperative pool (a thread per core) it would hold up every task of the process meanwhile.
    private static func flushed(_ fd: Int32) async -> Int32 {
        await withCheckedContinuation { continuation in
            Thread {
                continuation.resume(returning: fsync(fd) == 0 ? 0 : errno)
            }.start()
        }
    }

    /// Empties the partial file and removes its record, keeping the lock: the download starts the file again.
    func reset() {
        if descriptor >= 0 { _ = ftruncate(descriptor, 0) }
        try? FileManager.default.removeItem(at: record)
    }

    /// Removes the partial file and its record (a version that cannot be resumed), then lets the lock go.
    func discard() {
        guard descriptor >= 0 else { return }
        try? FileManager.default.removeItem(at: partial)
        try? FileManager.default.removeItem(at: record)
        try? FileManager.default.removeItem(at: recordDraft)
        closeFile()
    }

    /// Ends the download's hold on the partial file: an empty one (nothing received) goes, with its record, and a
    /// partial file with bytes stays for a resume.
    func release() {
        guard descriptor >= 0 else { return }
        var status = stat()
        if fstat(descriptor, &status) == 0, status.st_size == 0, isNamed(status) {
            discard()
        }
        closeFile()
    }

    private func closeFile() {
        if descriptor >= 0 { close(descriptor) }
        descriptor = -1
    }

    /// Whether the partial file's name still leads to the file `status` describes.
    private func isNamed(_ status: stat) -> Bool {
        var named = stat()
        let found = partial.withUnsafeFileSystemRepresentation { path in path.map { lstat($0, &named) == 0 } ?? false }
        return found && named.st_dev == status.st_dev && named.st_ino == status.st_ino
    }

    /// Writes every byte; 0, or the `errno` of the write that failed.
    private static func writeAll(_ fd: Int32, _ data: Data) -> Int32 {
        data.withUnsafeBytes { buffer in
            var offset = 0
            while offset < buffer.count {
                let count = systemWrite(fd, buffer.baseAddress! + offset, buffer.count - offset)
                if count < 0 {
                    if errno == EINTR { continue }
                    return errno
                }
                offset += count
            }
            return 0
        }
    }

    private static func errnoText() -> String { String(cString: strerror(errno)) }

    /// A failure of the file system with its `errno`. A full disk removes the partial file: kept, it would hold the
    /// space the next download in the folder needs, and resuming it would meet the same full disk.
    private func fileFailure(_ what: String, _ code: Int32) -> ErrandError {
        let reason = "\(what): \(String(cString: strerror(code)))"
        guard code == ENOSPC || code == EDQUOT else { return failure(reason) }
        discard()
        return failure("\(reason); the partial file was removed")
    }

    private func failure(_ reason: String) -> ErrandError {
        .transport(TransportFailure(kind: .other, url: url, underlying: reason))
    }
}
