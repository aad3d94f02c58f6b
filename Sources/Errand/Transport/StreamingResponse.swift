import Foundation
import Synchronization

/// A response whose body arrives as a stream of chunks.
public struct StreamingResponse: Sendable {
    /// The HTTP status code.
    public var status: Int
    /// The response headers.
    public var headers: HTTPHeaders
    /// The final URL, after redirects.
    public var url: URL
    /// The body, chunk by chunk.
    public var body: ByteStream

    /// Creates a streaming response.
    public init(status: Int, headers: HTTPHeaders, url: URL, body: ByteStream) {
        self.status = status
        self.headers = headers
        self.url = url
        self.body = body
    }
}

/// A body as an `AsyncSequence` of chunks, pulled one at a time.
///
/// A producer only has to deliver the next chunk when asked, which is how transports apply backpressure: a transfer
/// pauses while nobody asks. Iterate it once; a second iteration continues where the first left off.
public struct ByteStream: AsyncSequence, Sendable {
    /// A chunk of bytes.
    public typealias Element = Data

    private let next: @Sendable () async throws -> Data?

    /// Creates a stream from a function returning the next chunk, or `nil` at the end.
    public init(next: @escaping @Sendable () async throws -> Data?) {
        self.next = next
    }

    /// Iterates the chunks.
    public struct AsyncIterator: AsyncIteratorProtocol {
        let nextChunk: @Sendable () async throws -> Data?

        /// The next chunk, or `nil` at the end of the body.
        public mutating func next() async throws -> Data? { try await nextChunk() }
    }

    /// Makes the iterator.
    public func makeAsyncIterator() -> AsyncIterator { AsyncIterator(nextChunk: next) }

    /// Reads the whole stream into memory, failing with ``ErrandError/bodyTooLarge(limit:)`` past `limit` bytes.
    public func collect(upTo limit: Int = .max) async throws -> Data {
        var data = Data()
        for try await chunk in self {
            guard data.count + chunk.count <= limit else { throw ErrandError.bodyTooLarge(limit: limit) }
            data.append(chunk)
        }
        return data
    }

    /// The stream's first `count` bytes (fewer if it ends sooner), reading no further: an excerpt for an error.
    func prefix(bytes count: Int) async throws -> Data {
        var data = Data()
        for try await chunk in self {
            data.append(chunk)
            if data.count >= count { break }
        }
        return data.prefix(count)
    }
}

/// Hands out a value once, then `nil`.
final class ChunkOnce: Sendable {
    private let value: Mutex<Data?>

    init(_ data: Data) { value = Mutex(data.isEmpty ? nil : data) }

    func take() -> Data? {
        value.withLock { value in
            defer { value = nil }; return value
        }
    }
}

extension ByteStream {
    /// This stream, calling `onEnd` exactly once with the bytes read and how the body ended: at its end (`nil`), when
    /// reading it fails (the error), or when it is dropped unread or half read (``ErrandError/cancelled``, when the
    /// last copy of the stream goes). What holds a resource for a body's whole life — a concurrency slot, an observer's
    /// event — lets go of it here.
    func onEnd(_ onEnd: @escaping @Sendable (_ bytes: Int, _ failure: ErrandError?) -> Void) -> ByteStream {
        let watch = StreamEndWatch(onEnd)
        return ByteStream {
            do {
                var iterator = self.makeAsyncIterator()
                let chunk = try await iterator.next()
                watch.read(chunk)
                return chunk
            } catch {
                watch.end(ErrandError(error))
                throw error
            }
        }
    }
}

/// Counts a stream's bytes and reports its end once, whichever way it comes.
private final class StreamEndWatch: Sendable {
    private struct State {
        var bytes = 0
        var ended = false
    }

    private let state = Mutex(State())
    private let onEnd: @Sendable (Int, ErrandError?) -> Void

    init(_ onEnd: @escaping @Sendable (Int, ErrandError?) -> Void) { self.onEnd = onEnd }

    deinit { end(.cancelled) }

    func read(_ chunk: Data?) {
        guard let chunk else { return end(nil) }
        state.withLock { $0.bytes += chunk.count }
    }

    func end(_ failure: ErrandError?) {
        let bytes: Int? = state.withLock { state in
            guard !state.ended else { return nil }
            state.ended = true
            return state.bytes
        }
        if let bytes { onEnd(bytes, failure) }
    }
}
