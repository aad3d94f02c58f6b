/// Suspended callers in arrival order, each removable by its ticket when its task is cancelled.
///
/// Kept inside a limiter's `Mutex`; continuations taken out are resumed after the lock is released.
struct WaiterQueue {
    typealias Continuation = CheckedContinuation<Void, any Error>

    private var entries: [(ticket: UInt64, continuation: Continuation)] = []
    private var head = 0
    private var nextTicket: UInt64 = 0

    var isEmpty: Bool { head == entries.count }
    var count: Int { entries.count - head }

    /// A ticket for a caller about to wait; taken before suspending so a cancellation handler can name it.
    mutating func makeTicket() -> UInt64 {
        nextTicket &+= 1
        return nextTicket
    }

    mutating func append(_ ticket: UInt64, _ continuation: Continuation) {
        entries.append((ticket, continuation))
    }

    /// Removes and returns the longest-waiting caller.
    mutating func popFirst() -> Continuation? {
        guard head < entries.count else { return nil }
        let continuation = entries[head].continuation
        head += 1
        // Compact now and then so the array does not grow without bound under steady load.
        if head > 64, head * 2 > entries.count {
            entries.removeFirst(head)
            head = 0
        }
        return continuation
    }

    /// Removes the caller holding `ticket`, if it is still waiting.
    mutating func remove(_ ticket: UInt64) -> Continuation? {
        guard let index = entries[head...].firstIndex(where: { $0.ticket == ticket }) else { return nil }
        return entries.remove(at: index).continuation
    }

    /// Removes every caller.
    mutating func removeAll() -> [Continuation] {
        let all = entries[head...].map(\.continuation)
        entries.removeAll()
        head = 0
        return all
    }
}
