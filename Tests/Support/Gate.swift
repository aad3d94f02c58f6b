import Synchronization

/// Holds a stubbed request until the test lets it go, so a test can look at the state while it is in flight.
public final class Gate: Sendable {
    private let arrivals: AsyncStream<Void>
    private let arrived: AsyncStream<Void>.Continuation
    private let releases = Mutex<[CheckedContinuation<Void, Never>]>([])
    private let opened = Mutex(false)

    /// Creates a closed gate.
    public init() {
        (arrivals, arrived) = AsyncStream.makeStream(of: Void.self, bufferingPolicy: .unbounded)
    }

    /// Called by the stub: reports the arrival, then waits until ``open()``.
    public func pass() async {
        arrived.yield()
        await withCheckedContinuation { continuation in
            let isOpen = opened.withLock { open in
                if !open { releases.withLock { $0.append(continuation) } }
                return open
            }
            if isOpen { continuation.resume() }
        }
    }

    /// Waits until a request reached the gate.
    public func waitForArrival() async {
        var iterator = arrivals.makeAsyncIterator()
        _ = await iterator.next()
    }

    /// Lets every held and future request through.
    public func open() {
        opened.withLock { $0 = true }
        for continuation in releases.withLock({ list in
            defer { list.removeAll() }; return list
        }) {
            continuation.resume()
        }
    }
}
