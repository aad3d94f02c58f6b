import Foundation

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// Reads a ``MultipartBody`` as the bytes of its wire form, in whatever pieces a transport asks for, streaming files
/// from disk: the memory it holds is the in-memory parts and a few bytes per file, whatever the files' sizes.
///
/// Every file is opened and measured by ``open(_:)``, so a missing or unreadable file, a folder, a pipe or a device (whose
/// size cannot be known, and whose opening could block) fails before anything is sent, and ``contentLength`` is known
/// up front. While reading, a file that ends early or grows past its measured size,
/// or whose bytes contain the boundary, stops the body with ``ErrandError/invalidRequest(_:)``: the bytes handed out
/// never claim a length they do not have, and never hold a delimiter inside a part.
///
/// Not thread-safe: one reader serves one send, called by one thread at a time (the transport's).
final class MultipartReader {
    /// A run of the wire form: bytes in memory, or one part's file.
    private enum Segment {
        case bytes(Data)
        case file(FileSource)
    }

    /// Where the reader is.
    private enum State {
        /// Within segment `index`; for bytes, `offset` of them are out.
        case reading(index: Int, offset: Int)
        /// Everything was handed out.
        case finished
        /// A file misbehaved; every later read reports this.
        case failed(ErrandError)
    }

    private let segments: [Segment]
    private var state: State
    /// The body's length in bytes.
    let contentLength: Int
    /// Bytes handed out so far.
    private(set) var bytesRead = 0

    /// Opens every file of `body` and measures the whole; fails with a message naming the file that cannot be sent.
    static func open(_ body: MultipartBody) throws(ErrandError) -> MultipartReader {
        if let problem = body.problem { throw .invalidRequest(problem) }
        let needle = Array("--\(body.boundary)".utf8)
        var segments: [Segment] = []
        for (index, part) in body.parts.enumerated() {
            segments.append(.bytes(body.opening(of: index)))
            switch part.content {
            case .bytes(let data):
                segments.append(.bytes(data))
            case .file(let url):
                // A failure here releases the files already opened with the segments.
                segments.append(.file(try FileSource(url, boundary: needle)))
            }
        }
        segments.append(.bytes(body.closing))
        return MultipartReader(
            segments: segments.filter { if case .bytes(let data) = $0 { !data.isEmpty } else { true } })
    }

    private init(segments: [Segment]) {
        self.segments = segments
        contentLength = segments.reduce(0) { total, segment in
            switch segment {
            case .bytes(let data): total + data.count
            case .file(let file): total + file.size
            }
        }
        state = segments.isEmpty ? .finished : .reading(index: 0, offset: 0)
    }

    /// Fills `buffer` with the next bytes; returns how many (fewer only at the end, 0 once finished), or throws what
    /// stopped the body.
    func read(into buffer: UnsafeMutableRawBufferPointer) throws(ErrandError) -> Int {
        var filled = 0
        while filled < buffer.count {
            switch state {
            case .finished:
                return filled
            case .failed(let error):
                throw error
            case .reading(let index, let offset):
                let rest = UnsafeMutableRawBufferPointer(rebasing: buffer[filled...])
                switch segments[index] {
                case .bytes(let data):
                    let count = min(rest.count, data.count - offset)
                    let start = data.startIndex + offset
                    data.copyBytes(to: rest.bindMemory(to: UInt8.self), from: start..<(start + count))
                    filled += count
                    bytesRead += count
                    state =
                        offset + count == data.count
                        ? next(after: index) : .reading(index: index, offset: offset + count)
                case .file(let file):
                    do {
                        let count = try file.read(into: rest)
                        filled += count
                        bytesRead += count
                        if count == 0 { state = next(after: index) }
                    } catch {
                        state = .failed(error)
                        throw error
                    }
                }
            }
        }
        return filled
    }

    /// Whether every byte was handed out.
    var isFinished: Bool {
        if case .finished = state { return true }
        return false
    }

    private func next(after index: Int) -> State {
        index + 1 < segments.count ? .reading(index: index + 1, offset: 0) : .finished
    }
}

/// One part's file, open for reading (``BodyFile``), and the last bytes kept to find a boundary that straddles two
/// reads.
private final class FileSource {
    private let file: BodyFile
    private let boundary: [UInt8]
    private let search: BoundarySearch
    /// The last `boundary.count - 1` bytes read (fewer at the start).
    private var tail: [UInt8] = []

    /// The size measured when opened.
    var size: Int { file.size }
    private var path: String { file.path }

    init(_ url: URL, boundary: [UInt8]) throws(ErrandError) {
        file = try BodyFile(url, role: "the multipart file")
        self.boundary = boundary
        search = BoundarySearch(boundary)
    }

    /// Reads the next bytes of the file into `buffer` (never past its measured size); 0 at its end.
    func read(into buffer: UnsafeMutableRawBufferPointer) throws(ErrandError) -> Int {
        let count = try file.read(into: buffer)
        if count > 0 { try scan(UnsafeRawBufferPointer(rebasing: buffer[..<count])) }
        return count
    }

    /// Fails when the boundary occurs in the file's bytes read so far, so it is never sent inside a part.
    private func scan(_ bytes: UnsafeRawBufferPointer) throws(ErrandError) {
        let keep = boundary.count - 1
        // Slices by index: the sequence forms of prefix and suffix would walk every byte of the read.
        let seam = tail + bytes[..<min(keep, bytes.count)]
        if seam.withUnsafeBytes(search.occurs(in:)) || search.occurs(in: bytes) {
            throw .invalidRequest(
                "the multipart file \(path) contains the body's boundary; the upload was stopped before it was sent.")
        }
        if bytes.count >= keep {
            tail = Array(bytes[(bytes.count - keep)...])
        } else {
            let kept = tail + bytes[...]
            tail = Array(kept[max(0, kept.count - keep)...])
        }
    }
}

/// Finds a boundary in bytes by Boyer–Moore–Horspool: it compares the byte under the needle's last position and skips
/// by how far that byte is from the needle's end, so random data is crossed in steps of about the needle's length
/// rather than byte by byte (the check costs a few percent of a 1 GiB upload's CPU, not most of it).
struct BoundarySearch {
    private let needle: [UInt8]
    private let skips: [Int]

    init(_ needle: [UInt8]) {
        self.needle = needle
        var skips = [Int](repeating: needle.count, count: 256)
        for (index, byte) in needle.dropLast().enumerated() { skips[Int(byte)] = needle.count - 1 - index }
        self.skips = skips
    }

    /// Whether the needle occurs in `bytes`.
    func occurs(in bytes: UnsafeRawBufferPointer) -> Bool {
        let length = needle.count
        guard length > 0, bytes.count >= length, let base = bytes.baseAddress else { return false }
        return needle.withUnsafeBytes { pin in
            guard let pinBase = pin.baseAddress else { return false }
            let last = needle[length - 1]
            var position = 0
            while position <= bytes.count - length {
                let byte = bytes[position + length - 1]
                if byte == last && memcmp(base + position, pinBase, length - 1) == 0 { return true }
                position += skips[Int(byte)]
            }
            return false
        }
    }
}
