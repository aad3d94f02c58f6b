@testable import Errand
import Foundation
import Synchronization
import Testing

/// The one hand-off of a streamed body, as both transports use it, without a transfer behind it.
@Suite("Transports: the streamed body's channel")
struct BodyChannelTests {
    private static func describe(_ take: BodyChannel.Take) -> String {
        switch take {
        case .chunk(let data, let resume): "chunk(\(String(decoding: data, as: UTF8.self)), resume: \(resume))"
        case .end: "end"
        case .failure(let failure): "failure(\(failure))"
        case .wait: "wait"
        }
    }

    private static func offer(_ channel: BodyChannel, _ text: String, evenIfBehind: Bool = false) -> Bool {
        Data(text.utf8).withUnsafeBytes { channel.offer($0, evenIfBehind: evenIfBehind) }
    }

    @Test("a pausing producer is refused once capacity bytes wait, and resumed when the reader drains to half")
    func backpressure() {
        let channel = BodyChannel(capacity: 4)
        #expect(Self.offer(channel, "ab"))
        #expect(Self.offer(channel, "cd"))
        #expect(channel.pauseIfBehind())
        #expect(!Self.offer(channel, "ef"))
        // Bytes that cannot be offered again go in anyway.
        #expect(Self.offer(channel, "gh", evenIfBehind: true))
        #expect(Self.describe(channel.take()) == "chunk(ab, resume: false)")
        #expect(Self.describe(channel.take()) == "chunk(cd, resume: true)")
        #expect(Self.describe(channel.take()) == "chunk(gh, resume: false)")
        #expect(Self.describe(channel.take()) == "wait")
    }

    @Test("an appending producer is never refused and never asked to resume, however far behind the reader is")
    func appendNeverPauses() {
        let channel = BodyChannel()
        for index in 0..<1000 { channel.append(Data("\(index)".utf8)) }
        #expect(!channel.pauseIfBehind())
        var taken: [String] = []
        while case .chunk(let data, let resume) = channel.take() {
            #expect(!resume)
            taken.append(String(decoding: data, as: UTF8.self))
        }
        #expect(taken == (0..<1000).map { "\($0)" })
    }

    @Test("chunks queued before the end can still be read; then the end, or the failure, every time")
    func endAfterQueued() {
        let channel = BodyChannel()
        channel.append(Data("last".utf8))
        channel.finish(.cancelled)
        channel.append(Data("after the end".utf8))
        #expect(Self.describe(channel.take()) == "chunk(last, resume: false)")
        #expect(Self.describe(channel.take()) == "failure(\(ErrandError.cancelled))")
        #expect(Self.describe(channel.take()) == "failure(\(ErrandError.cancelled))")
        let clean = BodyChannel(capacity: 8)
        clean.finish(nil)
        clean.finish(.cancelled)
        #expect(Self.describe(clean.take()) == "end")
    }

    @Test("discarding lets go of every queued chunk at once and ends the body as cancelled")
    func discardReleasesChunks() {
        let channel = BodyChannel()
        for _ in 0..<64 { channel.append(Data(count: 64 * 1024)) }
        #expect(channel.bufferedByteCount == 64 * 64 * 1024)
        channel.discard()
        #expect(channel.bufferedByteCount == 0)
        #expect(Self.describe(channel.take()) == "failure(\(ErrandError.cancelled))")
        channel.append(Data("after".utf8))
        #expect(channel.bufferedByteCount == 0)
    }

    @Test("a waiting reader gets the next chunk straight from the producer, or the end")
    func waitingReader() async throws {
        let channel = BodyChannel()
        let reader = BodyReader(channel: channel, producer: CountingProducer())
        async let first = reader.next()
        // The reader parks its continuation in the channel; the append reaches it whichever comes first.
        channel.append(Data("x".utf8))
        #expect(try await first == Data("x".utf8))
        async let second = reader.next()
        channel.finish(nil)
        #expect(try await second == nil)
    }

    @Test("a reader dropped before the end cancels its producer; a cancelled reading task too")
    func readerCancels() async throws {
        let producer = CountingProducer()
        do {
            let reader = BodyReader(channel: BodyChannel(), producer: producer)
            _ = reader
        }
        #expect(producer.cancellations == 1)
        let channel = BodyChannel()
        let stopping = CountingProducer(finishing: channel)
        let reader = BodyReader(channel: channel, producer: stopping)
        let task = Task { try await reader.next() }
        task.cancel()
        await #expect(throws: ErrandError.self) { try await task.value }
        #expect(stopping.cancellations >= 1)
    }

    @Test("a reader dropped, or cancelled, with chunks queued lets go of them before the transfer winds down")
    func readerReleasesQueuedChunks() async throws {
        let dropped = BodyChannel()
        do {
            let reader = BodyReader(channel: dropped, producer: CountingProducer())
            dropped.append(Data(count: 1 << 20))
            _ = reader
        }
        #expect(dropped.bufferedByteCount == 0)
        let cancelled = BodyChannel()
        let reader = BodyReader(channel: cancelled, producer: CountingProducer())
        cancelled.append(Data(count: 1 << 20))
        let task = Task {
            withUnsafeCurrentTask { $0?.cancel() }
            return try await reader.next()
        }
        await #expect(throws: ErrandError.self) { try await task.value }
        #expect(cancelled.bufferedByteCount == 0)
    }
}

/// Counts what a reader asks of its producer; stops `channel` when cancelled, as a transport's producer does.
private final class CountingProducer: BodyProducer {
    private let counts = Mutex<(cancel: Int, resume: Int)>((0, 0))
    private let channel: BodyChannel?

    init(finishing channel: BodyChannel? = nil) {
        self.channel = channel
    }

    var cancellations: Int { counts.withLock { $0.cancel } }

    func cancel() {
        counts.withLock { $0.cancel += 1 }
        channel?.finish(.cancelled)
    }

    func resume() { counts.withLock { $0.resume += 1 } }
}
