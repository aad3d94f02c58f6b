import Foundation

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// A file sent in a request body (a `.file` body, or a multipart file part), open for reading: its size measured
/// when it was opened, and never more than that read.
///
/// Opened with ``RegularFile/open(_:flags:mode:)``, so a pipe, a device or a folder is refused before anything is
/// sent. The size goes out as (part of) `Content-Length` before the bytes, so a file that changes afterwards cannot be
/// sent as it is: one that ends early or grows stops the body at once with ``ErrandError/invalidRequest(_:)`` naming
/// the file, instead of leaving the server waiting for bytes that never come.
///
/// Not thread-safe: one reader serves one send, called by one thread at a time.
final class BodyFile {
    /// How the file is named in errors: `the body file`, `the multipart file`.
    let role: String
    let path: String
    /// The size measured when the file was opened.
    let size: Int
    private let descriptor: Int32
    /// Bytes read so far.
    private(set) var offset = 0
    /// Whether every byte was read and the file was found to have no more.
    private(set) var isFinished = false

    /// Opens the file at `url`, or fails with a sentence naming it as `role`.
    init(_ url: URL, role: String) throws(ErrandError) {
        self.role = role
        path = url.path
        do {
            (descriptor, size) = try RegularFile.open(url.path, flags: O_RDONLY)
        } catch {
            throw .invalidRequest("\(role) \(url.path) \(error.reason).")
        }
    }

    deinit {
        close(descriptor)
    }

    /// Reads the next bytes into `buffer`, never past the measured size; 0 once all of them were read. The read that
    /// reaches the measured size also checks that the file has no more, so a file that grew fails before its last
    /// bytes are handed out.
    func read(into buffer: UnsafeMutableRawBufferPointer) throws(ErrandError) -> Int {
        guard let base = buffer.baseAddress, buffer.count > 0, !isFinished else { return 0 }
        let wanted = min(buffer.count, size - offset)
        if wanted > 0 {
            let count = try readBytes(base, wanted)
            if count == 0 {
                throw .invalidRequest(
                    "\(role) \(path) changed size during the upload: it ended after \(offset) of its \(size) bytes.")
            }
            offset += count
            guard offset == size else { return count }
        }
        // Checked before the last bytes are handed out: a transport that knows the length asks for nothing after them.
        try checkEnded()
        return wanted
    }

    /// Fails when a file read to its measured size has more bytes: it grew while it was sent.
    private func checkEnded() throws(ErrandError) {
        var byte: UInt8 = 0
        guard try readBytes(&byte, 1) == 0 else {
            throw .invalidRequest(
                "\(role) \(path) changed size during the upload: it grew past the \(size) bytes measured when the upload started."
            )
        }
        isFinished = true
    }

    private func readBytes(_ base: UnsafeMutableRawPointer, _ count: Int) throws(ErrandError) -> Int {
        var result: Int
        repeat { result = systemRead(descriptor, base, count) } while result < 0 && errno == EINTR
        guard result >= 0 else {
            throw .invalidRequest("\(role) \(path) could not be read (\(RegularFile.errnoText(errno))).")
        }
        return result
    }
}

// The system call by another name: inside ``BodyFile`` its own `read` would hide it.
private func systemRead(_ descriptor: Int32, _ buffer: UnsafeMutableRawPointer, _ count: Int) -> Int {
    read(descriptor, buffer, count)
}
