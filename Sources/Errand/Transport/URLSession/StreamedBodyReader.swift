import Foundation

/// A streamed body (``StreamedBodyFeed``) read by a thread that may wait: the thread that spools it to a file for
/// URLSession (``PreparedBody``).
///
/// The read waits on a condition for the sequence's next bytes, on that thread of its own, never on the cooperative
/// pool and never on the producer's task, which only signals. URLSession does not read the sequence itself: an
/// `InputStream` cannot answer "not yet" (FoundationNetworking takes a read of 0 bytes as the end), and a read that
/// waits holds FoundationNetworking's work queue, which every `dataTask` and `resume` on the cooperative pool waits on
/// synchronously, so with both pool threads waiting there the producer never ran (seen under the parallel tests).
///
/// `@unchecked Sendable` because it is made and started by the calling task and then read by the spooling thread
/// alone; ``close()`` from any thread touches only the feed and the signal, which lock.
final class StreamedBodyReader: StreamedBody, @unchecked Sendable {
    private let feed: StreamedBodyFeed
    private let ready = ReadySignal()
    private(set) var isFinished = false

    init(_ feed: StreamedBodyFeed) {
        self.feed = feed
    }

    /// Starts the sequence.
    func start() {
        let ready = ready
        feed.start { ready.signal() }
    }

    /// Stops the sequence and releases a read waiting for it.
    func close() {
        feed.cancel()
        ready.signal()
    }

    func read(into buffer: UnsafeMutableRawBufferPointer) throws(ErrandError) -> Int {
        while true {
            switch feed.read(upTo: buffer.count) {
            case .bytes(let bytes):
                return bytes.copyBytes(to: buffer.bindMemory(to: UInt8.self))
            case .end:
                isFinished = true
                return 0
            case .failed(let failure):
                throw failure
            case .pending:
                ready.wait()
            }
        }
    }
}

/// A signal that one thread waits for and any other gives; a signal given before the wait is not lost.
///
/// `@unchecked Sendable` because ``isSignalled`` is read and written only with ``condition`` locked.
private final class ReadySignal: @unchecked Sendable {
    private let condition = NSCondition()
    private var isSignalled = false

    /// Waits until a signal is given, and takes it.
    func wait() {
        condition.lock()
        while !isSignalled { condition.wait() }
        isSignalled = false
        condition.unlock()
    }

    /// Gives the signal, waking the waiter.
    func signal() {
        condition.lock()
        isSignalled = true
        condition.signal()
        condition.unlock()
    }
}
