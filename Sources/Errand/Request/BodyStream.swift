import Foundation
import Synchronization

/// A request body streamed from an `AsyncSequence` of byte chunks, made by ``RequestBody/stream(_:length:contentType:)``
/// or ``RequestBody/stream(length:contentType:makingChunks:)``.
///
/// Transports read it a chunk or two ahead of the wire, so a sequence of any length is sent in bounded memory. A body
/// made from one sequence can be sent once: a retry (``RetryPolicy/allowsRetry(of:)`` says no), a 307 or 308 redirect
/// or a second hop that would need it again fails with ``ErrandError/invalidRequest(_:)``. A body made with a factory
/// asks it for a fresh sequence each time it is sent, and is retried and redirected like any other.
public final class BodyStream: Sendable, Hashable {
    /// The body's length in bytes, sent as `Content-Length`; `nil` when unknown (HTTP/1.1 then sends it chunked).
    public let length: Int?
    /// Whether the body can be sent more than once (it was made with a factory of sequences).
    public let isReplayable: Bool
    private let produce: @Sendable (StreamedBodyFeed) async -> Void
    private let isSent = Atomic<Bool>(false)

    init<Chunks: AsyncSequence & Sendable>(
        length: Int?, isReplayable: Bool, makingChunks: @escaping @Sendable () -> Chunks
    ) where Chunks.Element: DataProtocol {
        self.length = length
        self.isReplayable = isReplayable
        produce = { feed in
            do {
                for try await chunk in makingChunks() {
                    let data = chunk as? Data ?? Data(chunk)
                    guard await feed.push(data) else { return }
                }
                feed.finish(nil)
            } catch {
                // The sequence's own failure is the app's, not the network's.
                feed.finish(error as? ErrandError ?? .app(AppFailure(error)))
            }
        }
    }

    /// A fresh sending of the body, or a clear error when a body made from one sequence was sent already.
    func open() throws(ErrandError) -> StreamedBodyFeed {
        if !isReplayable, isSent.exchange(true, ordering: .acquiringAndReleasing) {
            throw .invalidRequest(
                "the streamed request body was sent already and its sequence cannot be read again (a retry, a 307 or "
                    + "308 redirect or a revalidation needs it twice); RequestBody.stream(length:contentType:"
                    + "makingChunks:) makes a fresh sequence for each sending.")
        }
        return StreamedBodyFeed(length: length, produce: produce)
    }

    /// Two streamed bodies are equal when they are the same one.
    public static func == (lhs: BodyStream, rhs: BodyStream) -> Bool { lhs === rhs }

    /// Hashes the body's identity.
    public func hash(into hasher: inout Hasher) {
        hasher.combine(ObjectIdentifier(self))
    }
}
