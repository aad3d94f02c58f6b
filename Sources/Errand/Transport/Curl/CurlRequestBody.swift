#if canImport(CCurl)
import Foundation

/// The request body libcurl pulls through its read callback: bytes in memory, a file read as it is sent, a
/// multipart body whose files are read as they are sent, or bytes an app's sequence streams (``StreamedBodyFeed``),
/// for which the transfer pauses while the sequence has not produced the next ones.
///
/// Opened by the calling task (``CurlTransfer``'s initialiser), so the loop thread never opens a file; files are
/// regular ones (``RegularFile``), whose reads on the loop thread are bounded by the disk. Read by the loop thread
/// only, one read at a time.
final class CurlRequestBody {
    private enum Source {
        case data(Data)
        case file(BodyFile)
        case multipart(MultipartReader)
        case stream(StreamedBodyFeed)
    }

    /// What a read gave libcurl.
    enum Read {
        /// This many bytes (0 at the end).
        case bytes(Int)
        /// None yet: the transfer pauses until the feed wakes it.
        case pause
        /// The body stopped (``failure`` says why).
        case failed
    }

    private let source: Source
    private var offset = 0
    /// The body's length in bytes, sent as `Content-Length`; `nil` when unknown (sent chunked over HTTP/1.1).
    let size: Int?
    /// Why the body stopped, when it failed mid-way (a file that changed or could not be read).
    private(set) var failure: ErrandError?
    /// Bytes handed to libcurl so far.
    private(set) var sent = 0

    /// Opens the body, or returns `nil` for no body; a file that cannot be read fails with a clear error.
    static func open(_ body: TransportBody) throws(ErrandError) -> CurlRequestBody? {
        switch body {
        case .none:
            return nil
        case .data(let data):
            return CurlRequestBody(source: .data(data), size: data.count)
        case .file(let url):
            guard url.isFileURL else { throw .invalidRequest("the body file \(url) is not a file URL.") }
            let file = try BodyFile(url, role: "the body file")
            return CurlRequestBody(source: .file(file), size: file.size)
        case .multipart(let multipart):
            let reader = try MultipartReader.open(multipart)
            return CurlRequestBody(source: .multipart(reader), size: reader.contentLength)
        case .stream(let stream):
            let feed = try stream.open()
            return CurlRequestBody(source: .stream(feed), size: feed.length)
        }
    }

    private init(source: Source, size: Int?) {
        self.source = source
        self.size = size
    }

    /// Starts a streamed body's sequence; `wake` runs when a paused transfer has bytes (or the end) to send.
    func start(waking wake: @escaping @Sendable () -> Void) {
        if case .stream(let feed) = source { feed.start(waking: wake) }
    }

    /// Stops a streamed body's sequence, when the transfer ends however it ends.
    func close() {
        if case .stream(let feed) = source { feed.cancel() }
    }

    /// Copies the next bytes into `buffer`.
    func read(into buffer: UnsafeMutableRawBufferPointer) -> Read {
        switch source {
        case .data(let data):
            let count = min(buffer.count, data.count - offset)
            guard count > 0 else { return .bytes(0) }
            let start = data.startIndex + offset
            data.copyBytes(to: buffer.bindMemory(to: UInt8.self), from: start..<(start + count))
            offset += count
            sent += count
            return .bytes(count)
        case .file(let file):
            do {
                let count = try file.read(into: buffer)
                sent += count
                return .bytes(count)
            } catch {
                failure = error
                return .failed
            }
        case .multipart(let reader):
            do {
                let count = try reader.read(into: buffer)
                sent += count
                return .bytes(count)
            } catch {
                failure = error
                return .failed
            }
        case .stream(let feed):
            switch feed.read(upTo: buffer.count) {
            case .bytes(let bytes):
                let count = bytes.copyBytes(to: buffer.bindMemory(to: UInt8.self))
                sent += count
                return .bytes(count)
            case .pending:
                return .pause
            case .end:
                return .bytes(0)
            case .failed(let error):
                failure = error
                return .failed
            }
        }
    }
}
#endif
