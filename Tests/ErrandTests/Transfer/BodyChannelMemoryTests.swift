@testable import Errand
import Foundation
import Testing

/// A streamed body's hand-off lets go of every chunk its reader took, even while the producer keeps the queue from
/// ever running empty (as a fast download does): the memory held is what waits unread, not what passed through.
@Suite("Streamed bodies: taken chunks are released")
struct BodyChannelMemoryTests {
    static let chunk = Data(repeating: 0x5A, count: 64 * 1024)
    /// 256 MiB pass through, one chunk always waiting.
    static let rounds = 4096

    static func residentMemory() -> Int? {
        guard let status = try? String(contentsOfFile: "/proc/self/status", encoding: .utf8) else { return nil }
        for line in status.split(separator: "\n") where line.hasPrefix("VmRSS:") {
            return line.split(separator: " ").dropFirst().first.flatMap { Int($0) }.map { $0 * 1024 }
        }
        return nil
    }

    @Test("a channel that never pauses (URLSession's): 256 MiB through a queue that never drains stays bounded")
    func appendingChannelInBoundedMemory() throws {
        let channel = BodyChannel()
        let before = Self.residentMemory()
        // Each chunk its own bytes, as URLSession delivers them (a shared `Data` would cost nothing to keep).
        func fresh() -> Data { Self.chunk.withUnsafeBytes { Data($0) } }
        channel.append(fresh())
        var taken = 0
        for _ in 0..<Self.rounds {
            channel.append(fresh())
            guard case .chunk(let data, let resume) = channel.take() else {
                Issue.record("no chunk to take")
                return
            }
            #expect(!resume)
            taken += data.count
        }
        #expect(taken == Self.rounds * Self.chunk.count)
        if let before, let after = Self.residentMemory() {
            #expect(after - before < 64 << 20, "resident memory grew by \((after - before) >> 20) MiB")
        }
    }

    @Test("a channel that pauses (curl's): 256 MiB through a queue that never drains stays in bounded memory")
    func offeringChannelInBoundedMemory() {
        let channel = BodyChannel(capacity: 1 << 20)
        let before = Self.residentMemory()
        var taken = 0
        Self.chunk.withUnsafeBytes { bytes in
            #expect(channel.offer(bytes))
            for _ in 0..<Self.rounds {
                #expect(channel.offer(bytes))
                guard case .chunk(let data, _) = channel.take() else {
                    Issue.record("no chunk to take")
                    return
                }
                taken += data.count
            }
        }
        #expect(taken == Self.rounds * Self.chunk.count)
        if let before, let after = Self.residentMemory() {
            #expect(after - before < 64 << 20, "resident memory grew by \((after - before) >> 20) MiB")
        }
    }
}
