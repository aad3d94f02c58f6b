#if canImport(CCurl)
import Foundation
import Synchronization

/// A growable byte buffer that becomes `Data` without a copy.
///
/// Sized from `Content-Length` when known, doubling otherwise: growing `Data` by many small appends measured slow
/// for 200 KB bodies, and handing the bytes over with `Data(bytesNoCopy:)` saves the final copy. Large buffers come
/// from, and go back to, a ``ResponseBodyPool`` when the transfer has one.
struct ResponseBodyBuffer: ~Copyable {
    private var base: UnsafeMutableRawPointer?
    private var capacity = 0
    /// The bytes held.
    private(set) var count = 0
    private let pool: ResponseBodyPool?

    init(pool: ResponseBodyPool? = nil) {
        self.pool = pool
    }

    deinit {
        free(base)
    }

    /// Makes room for at least `total` bytes in all.
    mutating func reserve(_ total: Int) {
        guard total > capacity else { return }
        if base == nil, let pool, let (reused, size) = pool.take(atLeast: total) {
            base = reused
            capacity = size
            return
        }
        guard let grown = realloc(base, total) else { return }
        base = grown
        capacity = total
    }

    /// Appends bytes, doubling the capacity when it runs out; returns false when memory cannot be had.
    mutating func append(_ bytes: UnsafeRawBufferPointer) -> Bool {
        guard let source = bytes.baseAddress, !bytes.isEmpty else { return true }
        let needed = count + bytes.count
        if needed > capacity { reserve(max(needed, capacity * 2, 16 * 1024)) }
        guard let base, needed <= capacity else { return false }
        (base + count).copyMemory(from: source, byteCount: bytes.count)
        count = needed
        return true
    }

    /// Hands the bytes over as `Data` and leaves the buffer empty.
    mutating func takeData() -> Data {
        guard let base, count > 0 else { return Data() }
        let data: Data
        if let pool, pool.keeps(capacity: capacity) {
            let capacity = capacity
            data = Data(
                bytesNoCopy: base, count: count,
                deallocator: .custom { bytes, _ in
                    pool.giveBack(bytes, capacity: capacity)
                })
        } else {
            data = Data(bytesNoCopy: base, count: count, deallocator: .free)
        }
        self.base = nil
        capacity = 0
        count = 0
        return data
    }
}

/// Large response-body buffers kept for the next response once the `Data` that carried them is released.
///
/// A fresh allocation of a few hundred kilobytes comes from the kernel as untouched pages, and faulting them in
/// measured as the largest cost of receiving 200 KB bodies; a buffer that has been used before costs nothing. The pool
/// keeps at most ``byteLimit`` bytes, only of buffers between ``minimumSize`` and ``maximumSize``, and frees the rest.
final class ResponseBodyPool: Sendable {
    /// Buffers smaller than this are cheap to allocate and are not kept.
    static let minimumSize = 64 * 1024
    /// Buffers larger than this are rare and are not kept.
    static let maximumSize = 4 * 1024 * 1024
    /// The most bytes kept in all.
    static let byteLimit = 16 * 1024 * 1024

    /// An allocation the pool owns. `@unchecked Sendable` because it is a raw pointer whose bytes nobody else
    /// references: ownership passes to the pool when the last `Data` over it is released, and out of it under the lock.
    private struct Buffer: @unchecked Sendable {
        let base: UnsafeMutableRawPointer
        let capacity: Int
    }

    private struct State: ~Copyable {
        var buffers: [Buffer] = []
        var bytes = 0

        deinit {
            for buffer in buffers { free(buffer.base) }
        }
    }

    private let state = Mutex(State())

    /// Whether a buffer of this capacity goes back to the pool when released.
    func keeps(capacity: Int) -> Bool {
        capacity >= Self.minimumSize && capacity <= Self.maximumSize
    }

    /// A kept buffer of at least `size` bytes (the smallest that fits), with its capacity; `nil` when none fits.
    func take(atLeast size: Int) -> (UnsafeMutableRawPointer, Int)? {
        guard keeps(capacity: size) else { return nil }
        return state.withLock { state in
            var best: Int?
            for (index, buffer) in state.buffers.enumerated() where buffer.capacity >= size {
                if best.map({ buffer.capacity < state.buffers[$0].capacity }) ?? true { best = index }
            }
            guard let best else { return nil }
            let buffer = state.buffers.remove(at: best)
            state.bytes -= buffer.capacity
            return (buffer.base, buffer.capacity)
        }
    }

    /// Keeps a released buffer, or frees it when the pool is full.
    func giveBack(_ base: UnsafeMutableRawPointer, capacity: Int) {
        let buffer = Buffer(base: base, capacity: capacity)
        let kept = state.withLock { state in
            guard state.bytes + capacity <= Self.byteLimit else { return false }
            state.buffers.append(buffer)
            state.bytes += capacity
            return true
        }
        if !kept { free(base) }
    }
}
#endif
