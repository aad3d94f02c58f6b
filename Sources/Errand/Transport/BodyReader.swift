import Foundation

/// The side of a transfer that a streamed body's reader talks back to.
protocol BodyProducer: Sendable {
    /// Stops the transfer: the reader's task was cancelled, or the reader went away before the end.
    func cancel()
    /// Resumes a transfer paused because the reader fell behind.
    func resume()
}

/// The reading end of a streamed body; dropping it before the end, or cancelling its reading task, cancels the transfer
/// and lets go of the chunks queued for it at once (not when the transfer has wound down).
///
/// Generic rather than over an existential so that curl's streams call their transfer directly.
final class BodyReader<Producer: BodyProducer>: Sendable {
    private let channel: BodyChannel
    private let producer: Producer

    init(channel: BodyChannel, producer: Producer) {
        self.channel = channel
        self.producer = producer
    }

    deinit {
        channel.discard()
        producer.cancel()
    }

    /// The next chunk, `nil` at the end; a cancelled task cancels the transfer and gets ``ErrandError/cancelled``.
    func next() async throws -> Data? {
        if Task.isCancelled {
            channel.discard()
            producer.cancel()
            throw ErrandError.cancelled
        }
        switch channel.take() {
        case .chunk(let chunk, let resume):
            if resume { producer.resume() }
            return chunk
        case .end:
            return nil
        case .failure(let failure):
            throw failure
        case .wait:
            break
        }
        return try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { continuation in
                switch channel.take(orStore: continuation) {
                case .chunk(let chunk, let resume):
                    if resume { producer.resume() }
                    continuation.resume(returning: chunk)
                case .end:
                    continuation.resume(returning: nil)
                case .failure(let failure):
                    continuation.resume(throwing: failure)
                case .wait:
                    break
                }
            }
        } onCancel: {
            channel.discard()
            producer.cancel()
        }
    }

    /// The body as a stream that keeps this reader alive while iterated.
    var byteStream: ByteStream {
        ByteStream { [self] in try await next() }
    }
}
