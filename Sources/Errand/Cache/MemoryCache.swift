import Synchronization

/// A cost-limited, least-recently-used cache in memory, safe to share between tasks.
///
/// Each value has a cost (its size in bytes, usually); when the total passes ``costLimit`` the least recently used
/// values go first. A value costing more than a quarter of the limit is not kept, so one huge value cannot flush
/// everything else. A limit of zero keeps nothing.
public final class MemoryCache<Key: Hashable & Sendable, Value: Sendable>: Sendable {
    /// The most total cost kept.
    public let costLimit: Int
    private let state: Mutex<LRUList<Key, Value>>

    /// Creates an empty cache.
    public init(costLimit: Int) {
        self.costLimit = max(0, costLimit)
        state = Mutex(LRUList())
    }

    /// The value for a key, marking it most recently used.
    public func value(for key: Key) -> Value? {
        state.withLock { $0.value(for: key) }
    }

    /// Stores a value, replacing any under the same key, then evicts down to the limit.
    public func set(_ value: Value, for key: Key, cost: Int) {
        guard costLimit > 0, cost <= costLimit / 4 else {
            removeValue(for: key)
            return
        }
        let limit = costLimit
        state.withLock { list in
            list.insert(value, for: key, cost: max(0, cost))
            list.evict(toCost: limit)
        }
    }

    /// Changes the value under a key atomically: `transform` gets the current value (or `nil`) and returns the new
    /// value and its cost, or `nil` to remove it.
    public func update(_ key: Key, _ transform: (Value?) -> (value: Value, cost: Int)?) {
        let limit = costLimit
        state.withLock { list in
            guard limit > 0, let (value, cost) = transform(list.peek(key)), cost <= limit / 4 else {
                list.remove(key)
                return
            }
            list.insert(value, for: key, cost: max(0, cost))
            list.evict(toCost: limit)
        }
    }

    /// Removes the value under a key.
    public func removeValue(for key: Key) {
        state.withLock { _ = $0.remove(key) }
    }

    /// Removes everything.
    public func removeAll() {
        state.withLock { $0 = LRUList() }
    }

    /// The total cost of what is kept.
    public var totalCost: Int { state.withLock { $0.totalCost } }

    /// How many values are kept.
    public var count: Int { state.withLock { $0.count } }
}

/// A dictionary with a doubly linked recency list threaded through its slots (keys as links, no reference types).
struct LRUList<Key: Hashable, Value> {
    private struct Slot {
        var value: Value
        var cost: Int
        var newer: Key?
        var older: Key?
    }

    private var slots: [Key: Slot] = [:]
    private var newest: Key?
    private var oldest: Key?
    private(set) var totalCost = 0

    var count: Int { slots.count }

    /// The value, without changing recency.
    func peek(_ key: Key) -> Value? { slots[key]?.value }

    /// The value, made the most recent.
    mutating func value(for key: Key) -> Value? {
        guard let slot = slots[key] else { return nil }
        if newest != key {
            unlink(key, slot)
            link(key, value: slot.value, cost: slot.cost)
        }
        return slot.value
    }

    mutating func insert(_ value: Value, for key: Key, cost: Int) {
        remove(key)
        link(key, value: value, cost: cost)
    }

    @discardableResult
    mutating func remove(_ key: Key) -> Value? {
        guard let slot = slots[key] else { return nil }
        unlink(key, slot)
        return slot.value
    }

    mutating func evict(toCost limit: Int) {
        while totalCost > limit, let key = oldest { remove(key) }
    }

    private mutating func link(_ key: Key, value: Value, cost: Int) {
        slots[key] = Slot(value: value, cost: cost, newer: nil, older: newest)
        if let previous = newest { slots[previous]?.newer = key }
        newest = key
        if oldest == nil { oldest = key }
        totalCost += cost
    }

    private mutating func unlink(_ key: Key, _ slot: Slot) {
        if let newer = slot.newer { slots[newer]?.older = slot.older } else { newest = slot.older }
        if let older = slot.older { slots[older]?.newer = slot.newer } else { oldest = slot.newer }
        slots[key] = nil
        totalCost -= slot.cost
    }
}
