import Foundation

/// The hand-off of a streamed request body between the task that iterates the app's sequence (the producer) and the
/// transport that sends it (the consumer), as states and the actions each transition asks for.
///
/// ```
/// streaming ─finish(nil)─▶ finished ─(drained)─▶ end
/// streaming | finished ─finish(error) | push past the length | finish short of it─▶ failed
/// any ─cancel─▶ cancelled
/// ```
///
/// Memory stays bounded: the producer is held (``Waiter``) while ``capacity`` chunks are buffered, so whatever the
/// sequence's length, at most that many chunks are in memory. The consumer never waits: it reads what is there or is
/// told ``Read/pending``, and then it is woken (``Effects/wakesConsumer``) once bytes or the end arrive.
///
/// When a length is declared, its last byte is held back until the producer has reached the sequence's end, so a
/// sequence that yields more than it declared fails the request rather than being cut off unnoticed.
struct StreamedBodyStateMachine<Waiter> {
    /// What the consumer gets from a read.
    enum Read {
        /// The next bytes, at most as many as asked for.
        case bytes(Data)
        /// Nothing yet: the consumer is woken when there is.
        case pending
        /// The body is complete.
        case end
        /// The body stopped: the sequence threw, broke its declared length, or the exchange was cancelled.
        case failed(ErrandError)
    }

    /// What the caller of a transition must do after it, outside the lock.
    struct Effects {
        /// A held producer to resume, with whether it should go on producing.
        var resumes: (Waiter, Bool)?
        /// Whether the consumer, told ``Read/pending`` last, should read again.
        var wakesConsumer = false
    }

    private struct Buffer {
        var chunks: [Data] = []
        var produced = 0
        var delivered = 0
        var producer: Waiter?
        var consumerWaits = false
    }

    private enum State {
        case streaming(Buffer)
        case finished(Buffer)
        case failed(ErrandError)
        case cancelled
    }

    /// The declared length, when there is one.
    let length: Int?
    /// How many chunks may wait in memory before the producer is held.
    let capacity: Int
    private var state = State.streaming(Buffer())

    /// A hand-off for a body of `length` bytes (`nil` when unknown), holding at most `capacity` chunks (two or more).
    init(length: Int?, capacity: Int = 2) {
        self.length = length
        // One chunk may sit with its last declared byte held back while the producer looks for the end.
        self.capacity = max(2, capacity)
    }

    /// Bytes handed to the consumer so far.
    var delivered: Int {
        switch state {
        case .streaming(let buffer), .finished(let buffer): buffer.delivered
        case .failed, .cancelled: 0
        }
    }

    /// The producer offers `chunk`; it is held (kept as `waiter` until a read makes room) when the buffer is full.
    mutating func push(_ chunk: Data, waiter: Waiter) -> Effects {
        guard case .streaming(var buffer) = state else { return Effects(resumes: (waiter, false)) }
        buffer.produced += chunk.count
        if let length, buffer.produced > length {
            return fail(
                .invalidRequest("the streamed body yielded more than the \(length) bytes it declared."),
                waking: buffer, also: waiter)
        }
        if !chunk.isEmpty { buffer.chunks.append(chunk) }
        var effects = Effects()
        effects.wakesConsumer = buffer.consumerWaits && !chunk.isEmpty
        if effects.wakesConsumer { buffer.consumerWaits = false }
        if buffer.chunks.count >= capacity {
            buffer.producer = waiter
        } else {
            effects.resumes = (waiter, true)
        }
        state = .streaming(buffer)
        return effects
    }

    /// The producer reached the sequence's end (`nil`) or the sequence threw `failure`.
    mutating func finish(_ failure: ErrandError?) -> Effects {
        guard case .streaming(var buffer) = state else { return Effects() }
        if let failure { return fail(failure, waking: buffer) }
        if let length, buffer.produced < length {
            return fail(
                .invalidRequest(
                    "the streamed body ended after \(buffer.produced) of the \(length) bytes it declared."),
                waking: buffer)
        }
        let wakes = buffer.consumerWaits
        buffer.consumerWaits = false
        state = .finished(buffer)
        return Effects(resumes: nil, wakesConsumer: wakes)
    }

    /// The consumer asks for at most `maximum` bytes.
    mutating func read(upTo maximum: Int) -> (Read, Effects) {
        switch state {
        case .failed(let failure):
            return (.failed(failure), Effects())
        case .cancelled:
            return (.failed(.cancelled), Effects())
        case .finished(var buffer):
            guard !buffer.chunks.isEmpty else { return (.end, Effects()) }
            let bytes = take(upTo: maximum, from: &buffer)
            state = .finished(buffer)
            return (.bytes(bytes), Effects())
        case .streaming(var buffer):
            // The last declared byte waits for the end, so that a sequence going past its length is caught.
            let allowed = length.map { min(maximum, $0 - buffer.delivered - 1) } ?? maximum
            guard allowed > 0, !buffer.chunks.isEmpty else {
                buffer.consumerWaits = true
                state = .streaming(buffer)
                return (.pending, Effects())
            }
            let bytes = take(upTo: allowed, from: &buffer)
            var effects = Effects()
            if buffer.chunks.count < capacity, let producer = buffer.producer {
                buffer.producer = nil
                effects.resumes = (producer, true)
            }
            state = .streaming(buffer)
            return (.bytes(bytes), effects)
        }
    }

    /// The exchange ended (or was cancelled) before the body was complete: the producer stops.
    mutating func cancel() -> Effects {
        var effects = Effects()
        switch state {
        case .streaming(let buffer):
            if let producer = buffer.producer { effects.resumes = (producer, false) }
            effects.wakesConsumer = buffer.consumerWaits
        case .finished, .failed, .cancelled:
            break
        }
        state = .cancelled
        return effects
    }

    private mutating func take(upTo maximum: Int, from buffer: inout Buffer) -> Data {
        let first = buffer.chunks[0]
        let count = min(maximum, first.count)
        let bytes = first.prefix(count)
        if count == first.count {
            buffer.chunks.removeFirst()
        } else {
            buffer.chunks[0] = first.dropFirst(count)
        }
        buffer.delivered += count
        return bytes
    }

    private mutating func fail(_ failure: ErrandError, waking buffer: Buffer, also waiter: Waiter? = nil) -> Effects {
        state = .failed(failure)
        let resumes = waiter ?? buffer.producer
        return Effects(resumes: resumes.map { ($0, false) }, wakesConsumer: buffer.consumerWaits)
    }
}
