import Foundation
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

// The C functions by other names: inside ``DownloadFile`` its own `open` and `write` would hide them.
private func systemOpen(_ path: UnsafePointer<CChar>, _ flags: Int32, _ mode: mode_t = 0) -> Int32 {
    open(path, flags, mode)
}
private func systemWrite(_ fd: Int32, _ bytes: UnsafeRawPointer, _ count: Int) -> Int { write(fd, bytes, count) }

/// The files of a download beside its destination: the partial file the body is written into and a small record of
/// the version it holds (its validator and length), both hidden (`.name.download`, `.name.download-info`).
///
/// The destination itself is only ever replaced by `rename(2)` of a complete, flushed partial file, so it is either the
/// complete new file or what it was before — whatever happens to the process meanwhile.
final class DownloadFile {
    /// What the record beside a partial file says about it.
    struct Record: Codable, Sendable {
        var validator: DownloadStateMachine.Validator?
        var length: Int64?
        var url: String
    }

    let destination: URL
    let partial: URL
    let record: URL
    private var descriptor: Int32 = -1

    init(destination: URL) {
        self.destination = destination
        let directory = destination.deletingLastPathComponent()
        let name = destination.lastPathComponent
        partial = directory.appendingPathComponent(".\(name).download")
        record = directory.appendingPathComponent(".\(name).download-info")
    }

    deinit {
        if descriptor >= 0 { close(descriptor) }
    }

    /// The size of the partial file and what its record says, when both exist and the record is for `url`.
    func existingPartial(for url: URL) -> (size: Int64, record: Record)? {
        guard let attributes = try? FileManager.default.attributesOfItem(atPath: partial.path),
            let size = (attributes[.size] as? NSNumber)?.int64Value,
            let data = try? RegularFile.contents(of: record.path, limit: 1 << 20),
            let saved = try? JSONDecoder().decode(Record.self, from: data),
            saved.url == url.absoluteString
        else { return nil }
        return (size, saved)
    }

    /// Writes the record of the version about to be written, replacing the old one atomically.
    func saveRecord(_ saved: Record) throws(ErrandError) {
        do {
            try JSONEncoder().encode(saved).write(to: record, options: .atomic)
        } catch {
            throw Self.failure("cannot write \(record.path): \(error)")
        }
    }

    /// Opens the partial file for writing at `offset`: 0 truncates it; a larger offset keeps the bytes before it.
    func open(at offset: Int64) throws(ErrandError) {
        closeFile()
        // Never through a symbolic link someone put in the partial file's place: that would write wherever it points.
        let flags = O_WRONLY | O_CREAT | O_NOFOLLOW | O_CLOEXEC | (offset == 0 ? O_TRUNC : 0)
        let fd = try openPartial(flags)
        descriptor = fd
        // Bytes past the offset (from a version that was longer) would otherwise survive an append.
        guard ftruncate(fd, off_t(offset)) == 0, lseek(fd, off_t(offset), SEEK_SET) == off_t(offset) else {
            throw Self.failure("cannot position \(partial.path) at \(offset): \(Self.errnoText())")
        }
    }

    /// Appends bytes to the partial file.
    func write(_ data: Data) throws(ErrandError) {
        let fd = descriptor
        let failed: Bool = data.withUnsafeBytes { buffer in
            var offset = 0
            while offset < buffer.count {
                let count = systemWrite(fd, buffer.baseAddress! + offset, buffer.count - offset)
                if count < 0 {
                    if errno == EINTR { continue }
                    return true
                }
                offset += count
            }
            return false
        }
        if failed { throw Self.failure("cannot write \(partial.path): \(Self.errnoText())") }
    }

    /// Flushes the partial file to disk, moves it onto the destination and removes the record; the directory is
    /// flushed too, so the rename survives a crash.
    func commit() throws(ErrandError) {
        if descriptor < 0 {
            descriptor = try openPartial(O_WRONLY | O_NOFOLLOW)
        }
        guard fsync(descriptor) == 0 else { throw Self.failure("cannot flush \(partial.path): \(Self.errnoText())") }
        closeFile()
        let moved = partial.withUnsafeFileSystemRepresentation { from in
            destination.withUnsafeFileSystemRepresentation { to in
                guard let from, let to else { return false }
                return rename(from, to) == 0
            }
        }
        guard moved else { throw Self.failure("cannot move the download to \(destination.path): \(Self.errnoText())") }
        try? FileManager.default.removeItem(at: record)
        let directory = destination.deletingLastPathComponent()
        let fd = directory.withUnsafeFileSystemRepresentation { path in path.map { systemOpen($0, O_RDONLY) } ?? -1 }
        if fd >= 0 {
            _ = fsync(fd)
            close(fd)
        }
    }

    /// Removes the partial file and its record (a version that cannot be resumed).
    func discard() {
        closeFile()
        try? FileManager.default.removeItem(at: partial)
        try? FileManager.default.removeItem(at: record)
    }

    /// Closes the partial file, keeping it for a resume.
    func closeFile() {
        if descriptor >= 0 { close(descriptor) }
        descriptor = -1
    }

    /// Opens the partial file without waiting on whatever is there (a FIFO would block), refusing all but a regular file.
    private func openPartial(_ flags: Int32) throws(ErrandError) -> Int32 {
        do {
            return try RegularFile.open(partial.path, flags: flags, mode: 0o644).descriptor
        } catch {
            throw Self.failure("cannot open \(partial.path): it \(error.reason)")
        }
    }

    private static func errnoText() -> String { String(cString: strerror(errno)) }

    private static func failure(_ reason: String) -> ErrandError {
        .transport(TransportFailure(kind: .other, underlying: reason))
    }
}
