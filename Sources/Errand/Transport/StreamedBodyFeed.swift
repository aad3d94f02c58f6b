import Foundation
import Synchronization

/// One sending of a streamed request body: the task that iterates the app's sequence, and the bounded hand-off
/// (``StreamedBodyStateMachine``) the transport reads from without ever waiting.
///
/// The transport calls ``start(waking:)`` when the exchange begins and ``cancel()`` when it ends, however it ends;
/// cancelling releases a producer held by a full buffer and cancels the iterating task.
final class StreamedBodyFeed: Sendable {
    private typealias Machine = StreamedBodyStateMachine<CheckedContinuation<Bool, Never>>

    private struct Guarded {
        var machine: Machine
        var wake: (@Sendable () -> Void)?
        var producer: Task<Void, Never>?
        var isCancelled = false
    }

    /// The declared length, when there is one.
    let length: Int?
    private let produce: @Sendable (StreamedBodyFeed) async -> Void
    private let guarded: Mutex<Guarded>

    /// A feed of a body of `length` bytes (`nil` when unknown) that `produce` fills.
    init(length: Int?, produce: @escaping @Sendable (StreamedBodyFeed) async -> Void) {
        self.length = length
        self.produce = produce
        guarded = Mutex(Guarded(machine: Machine(length: length)))
    }

    /// Starts iterating the sequence on a task of its own; `wake` runs, on whichever thread produced, when a read
    /// that was told ``StreamedBodyStateMachine/Read/pending`` may read again.
    func start(waking wake: @escaping @Sendable () -> Void) {
        guarded.withLock { $0.wake = wake }
        let task = Task { await produce(self) }
        let cancelledAlready = guarded.withLock { guarded in
            guarded.producer = task
            return guarded.isCancelled
        }
        if cancelledAlready { task.cancel() }
    }

    /// Hands `chunk` to the transport, waiting while the buffer is full; false when the exchange is over and the
    /// producer should stop.
    func push(_ chunk: Data) async -> Bool {
        await withCheckedContinuation { continuation in
            let (effects, wake) = guarded.withLock { ($0.machine.push(chunk, waiter: continuation), $0.wake) }
            perform(effects, wake: wake)
        }
    }

    /// Ends the body: the sequence's end (`nil`) or what it threw.
    func finish(_ failure: ErrandError?) {
        let (effects, wake) = guarded.withLock { ($0.machine.finish(failure), $0.wake) }
        perform(effects, wake: wake)
    }

    /// The next bytes for the transport, at most `maximum`; never waits.
    func read(upTo maximum: Int) -> StreamedBodyStateMachine<Void>.Read {
        let (read, effects) = guarded.withLock { $0.machine.read(upTo: maximum) }
        perform(effects, wake: nil)
        switch read {
        case .bytes(let bytes): return .bytes(bytes)
        case .pending: return .pending
        case .end: return .end
        case .failed(let failure): return .failed(failure)
        }
    }

    /// Bytes handed to the transport so far.
    var delivered: Int { guarded.withLock { $0.machine.delivered } }

    /// Stops the body: the exchange ended. The producer is released and its task cancelled; the wake-up is dropped, so
    /// that nothing the transport owns is kept alive by the feed.
    func cancel() {
        let (effects, wake, producer) = guarded.withLock { guarded in
            guarded.isCancelled = true
            let wake = guarded.wake
            guarded.wake = nil
            return (guarded.machine.cancel(), wake, guarded.producer)
        }
        perform(effects, wake: wake)
        producer?.cancel()
    }

    private func perform(_ effects: Machine.Effects, wake: (@Sendable () -> Void)?) {
        if let (producer, goesOn) = effects.resumes { producer.resume(returning: goesOn) }
        if effects.wakesConsumer { wake?() }
    }
}
