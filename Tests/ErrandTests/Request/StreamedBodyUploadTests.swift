@testable import Errand
import Foundation
import Synchronization
import TestSupport
import Testing

/// Request bodies streamed from an `AsyncSequence`, on the wire: what the upload server received (bytes, their hash,
/// and the framing: `Content-Length` or chunked), on every ``TransportKind``.
@Suite("Streamed request bodies", .enabled(if: TestServer.upload.isUsable), .timeLimit(.minutes(2)))
struct StreamedBodyUploadTests {
    /// What the upload server's echo saw of a body.
    // swift-format-ignore: AlwaysUseLowerCamelCase
    // The fields are the server's JSON keys.
    struct Seen: Decodable, Sendable {
        var method: String
        var headers: [[String]]
        var body_size: Int
        var body_sha256: String

        func header(_ name: String) -> String? {
            headers.first { $0.first?.lowercased() == name.lowercased() }?.last
        }
    }

    /// An error of the app's own, thrown by a sequence mid-way.
    struct SourceBroke: Error, Equatable {
        let after: Int
    }

    func client(_ kind: TransportKind) throws -> APIClient {
        var configuration = ClientConfiguration(baseURL: try TestServer.upload.url(), transport: kind.make())
        configuration.timeout = .seconds(60)
        return APIClient(configuration: configuration)
    }

    /// Bytes no text encoding would keep, in chunks of uneven sizes.
    static let bytes = Data((0..<700_001).map { UInt8(truncatingIfNeeded: $0 &* 31 &+ $0 >> 9) })

    static func chunks(of data: Data, size: Int) -> [Data] {
        stride(from: 0, to: data.count, by: size).map { data.subdata(in: $0..<min($0 + size, data.count)) }
    }

    /// The chunks as an async sequence.
    static func sequence(_ chunks: [Data]) -> AsyncStream<Data> {
        AsyncStream { continuation in
            for chunk in chunks { continuation.yield(chunk) }
            continuation.finish()
        }
    }

    /// What the server sees of the same bytes sent from memory: the reference hash.
    func reference(_ kind: TransportKind) async throws -> Seen {
        try await client(kind).send(Request<Seen>(method: .post, path: "echo", body: .data(Self.bytes))).value
    }

    /// Whether the transport sends the chunks as they come; URLSession spools them to a file first, and sends that
    /// with its length.
    static func streams(_ kind: TransportKind) -> Bool { kind != .urlSession }

    @Test("a body of known length arrives byte for byte with its Content-Length", arguments: TransportKind.allCases)
    func knownLength(kind: TransportKind) async throws {
        let body = RequestBody.stream(
            Self.sequence(Self.chunks(of: Self.bytes, size: 65_537)), length: Self.bytes.count)
        let seen = try await client(kind).send(Request<Seen>(method: .post, path: "echo", body: body)).value
        let expected = try await reference(kind)
        #expect(seen.body_size == Self.bytes.count)
        #expect(seen.body_sha256 == expected.body_sha256)
        #expect(seen.header("Content-Type") == "application/octet-stream")
        #expect(seen.header("Content-Length") == String(Self.bytes.count))
        #expect(seen.header("Transfer-Encoding") == nil)
    }

    @Test(
        "a body of unknown length arrives chunked over HTTP/1.1 (spooled and measured over URLSession), byte for byte",
        arguments: TransportKind.allCases)
    func unknownLength(kind: TransportKind) async throws {
        let chunks = Self.chunks(of: Self.bytes, size: 10_000).map { [UInt8]($0) }
        let stream = AsyncStream<[UInt8]> { continuation in
            for chunk in chunks { continuation.yield(chunk) }
            continuation.finish()
        }
        let request = Request<Seen>(
            method: .put, path: "echo", body: .stream(stream, contentType: "application/x-test"))
        let seen = try await client(kind).send(request).value
        let expected = try await reference(kind)
        #expect(seen.method == "PUT")
        #expect(seen.body_size == Self.bytes.count)
        #expect(seen.body_sha256 == expected.body_sha256)
        if Self.streams(kind) {
            #expect(seen.header("Transfer-Encoding") == "chunked")
            #expect(seen.header("Content-Length") == nil)
        } else {
            #expect(seen.header("Content-Length") == String(Self.bytes.count))
        }
        #expect(seen.header("Content-Type") == "application/x-test")
    }

    @Test("an empty sequence sends an empty body", arguments: TransportKind.allCases)
    func empty(kind: TransportKind) async throws {
        let known = try await client(kind).send(
            Request<Seen>(method: .post, path: "echo", body: .stream(Self.sequence([]), length: 0))
        ).value
        #expect(known.body_size == 0)
        let unknown = try await client(kind).send(
            Request<Seen>(method: .post, path: "echo", body: .stream(Self.sequence([Data(), Data()])))
        ).value
        #expect(unknown.body_size == 0)
    }

    @Test(
        "a sequence that throws mid-way stops the request with its own error, not a network failure",
        arguments: TransportKind.allCases)
    func sequenceThrows(kind: TransportKind) async throws {
        let stream = AsyncThrowingStream<Data, any Error> { continuation in
            continuation.yield(Data(count: 100_000))
            continuation.finish(throwing: SourceBroke(after: 100_000))
        }
        let request = Request<Seen>(method: .post, path: "echo", body: .stream(stream))
        do {
            _ = try await client(kind).send(request)
            Issue.record("a throwing sequence must fail the request")
        } catch {
            guard case .app(let failure) = error as? ErrandError else {
                Issue.record("expected the app's failure, got \(error)")
                return
            }
            #expect(failure.underlying(as: SourceBroke.self) == SourceBroke(after: 100_000))
        }
    }

    @Test(
        "a sequence that yields more or fewer bytes than it declared fails clearly",
        arguments: TransportKind.allCases, [(10, 12), (10, 7)])
    func lengthMismatch(kind: TransportKind, lengths: (declared: Int, yielded: Int)) async throws {
        let body = RequestBody.stream(Self.sequence([Data(count: lengths.yielded)]), length: lengths.declared)
        do {
            _ = try await client(kind).send(Request<Seen>(method: .post, path: "echo", body: body))
            Issue.record("a body that breaks its length must fail")
        } catch {
            guard case .invalidRequest(let message) = error as? ErrandError else {
                Issue.record("expected invalidRequest, got \(error)")
                return
            }
            let expected =
                lengths.yielded > lengths.declared
                ? "the streamed body yielded more than the 10 bytes it declared."
                : "the streamed body ended after 7 of the 10 bytes it declared."
            #expect(message == expected)
        }
    }

    @Test(
        "a slow producer: the upload waits for each chunk, and progress counts the bytes as they go",
        arguments: TransportKind.allCases)
    func slowProducer(kind: TransportKind) async throws {
        let (chunks, producer) = AsyncStream.makeStream(of: Data.self)
        let first = Data(repeating: 1, count: 200_000)
        let second = Data(repeating: 2, count: 300_000)
        let upload = try client(kind).transfer(
            Request<Seen>(method: .post, path: "echo", body: .stream(chunks, length: first.count + second.count)))
        producer.yield(first)
        if Self.streams(kind) {
            // The second chunk does not exist until the first one's bytes are reported sent; no more can be.
            var sentBeforeSecond = 0
            for await update in upload.progress where update.bytesSent >= Int64(first.count) {
                sentBeforeSecond = Int(update.bytesSent)
                break
            }
            #expect(sentBeforeSecond == first.count)
        }
        producer.yield(second)
        producer.finish()
        let seen = try await upload.value.value
        #expect(seen.body_size == first.count + second.count)
    }

    /// 64 MB made a megabyte at a time as the upload asks for it, noting the process's resident size at each chunk.
    struct Generated: AsyncSequence, Sendable {
        let chunks: Int
        let sampler: ResidentSampler

        struct AsyncIterator: AsyncIteratorProtocol {
            var made = 0
            let chunks: Int
            let sampler: ResidentSampler

            mutating func next() async -> Data? {
                guard made < chunks else { return nil }
                made += 1
                sampler.sample()
                return Data(repeating: UInt8(truncatingIfNeeded: made), count: 1 << 20)
            }
        }

        func makeAsyncIterator() -> AsyncIterator { AsyncIterator(chunks: chunks, sampler: sampler) }
    }

    @Test("64 MB from a sequence go through in bounded memory", arguments: TransportKind.allCases)
    func largeInBoundedMemory(kind: TransportKind) async throws {
        let sampler = ResidentSampler()
        let body = RequestBody.stream(Generated(chunks: 64, sampler: sampler), length: 64 << 20)
        let seen = try await client(kind).send(Request<Seen>(method: .post, path: "echo", body: body)).value
        #expect(seen.body_size == 64 << 20)
        // Other suites run in this process at the same time, so the bound is loose: a body held whole would add 64 MB.
        if let growth = sampler.growth {
            print("streamed 64 MB over \(kind): resident size grew by at most \(growth >> 20) MB while sending")
            #expect(growth < 48 << 20)
        }
    }

    /// A 307 from httpbin to the upload server's echo, which sends the body again.
    static func redirect307() throws -> URL {
        let target = try TestServer.upload.url().appendingPathComponent("echo")
        var components = try #require(
            URLComponents(
                url: try TestServer.httpbin.url().appendingPathComponent("redirect-to"), resolvingAgainstBaseURL: false)
        )
        components.queryItems = [
            URLQueryItem(name: "url", value: target.absoluteString), URLQueryItem(name: "status_code", value: "307"),
        ]
        return try #require(components.url)
    }

    @Test(
        "a 307 redirect fails clearly for a body from one sequence, and sends a factory's fresh sequence again",
        .enabled(if: TestServer.httpbin.isUsable), arguments: TransportKind.allCases)
    func redirect(kind: TransportKind) async throws {
        let url = try Self.redirect307()
        let payload = Data("sent twice".utf8)
        let once = Request<Seen>(
            method: .post, url: url, body: .stream(Self.sequence([payload]), length: payload.count))
        do {
            _ = try await client(kind).send(once)
            Issue.record("a one-shot body cannot follow a 307")
        } catch {
            guard case .invalidRequest(let message) = error as? ErrandError else {
                Issue.record("expected invalidRequest, got \(error)")
                return
            }
            #expect(message.hasPrefix("the streamed request body was sent already"))
        }
        let made = MadeCounter()
        let replayable = Request<Seen>(
            method: .post, url: url,
            body: .stream(length: payload.count) {
                made.increment()
                return Self.sequence([payload])
            })
        let seen = try await client(kind).send(replayable).value
        #expect(seen.body_size == payload.count)
        #expect(made.value == 2)
    }

    @Test("a body from one sequence is not retried; one from a factory is made again for every attempt")
    func retries() throws {
        let policy = RetryPolicy(maxAttempts: 3, retriesNonIdempotentMethods: true)
        let url = try TestServer.upload.url()
        let once = TransportRequest(method: .put, url: url, body: .stream(BodyStream.make(Self.sequence([]))))
        #expect(!policy.allowsRetry(of: once))
        let again = TransportRequest(
            method: .put, url: url, body: .stream(BodyStream.make(replayable: true, Self.sequence([]))))
        #expect(policy.allowsRetry(of: again))
    }
}

extension BodyStream {
    /// A streamed body of `chunks`, as `RequestBody.stream` makes it.
    static func make(replayable: Bool = false, _ chunks: AsyncStream<Data>) -> BodyStream {
        BodyStream(length: nil, isReplayable: replayable) { chunks }
    }
}

/// Counts calls from any task.
final class MadeCounter: Sendable {
    private let count = Mutex(0)

    func increment() { count.withLock { $0 += 1 } }

    var value: Int { count.withLock { $0 } }
}

/// The process's resident size (Linux's `VmRSS`), sampled: the first sample and the largest.
final class ResidentSampler: Sendable {
    private let samples = Mutex<(first: Int, largest: Int)?>(nil)

    func sample() {
        guard let now = Self.resident() else { return }
        samples.withLock { samples in
            samples = samples.map { ($0.first, max($0.largest, now)) } ?? (now, now)
        }
    }

    /// How far the largest sample exceeds the first; `nil` where the size cannot be read.
    var growth: Int? { samples.withLock { $0.map { $0.largest - $0.first } } }

    static func resident() -> Int? {
        guard let status = try? String(contentsOfFile: "/proc/self/status", encoding: .utf8) else { return nil }
        for line in status.split(separator: "\n") where line.hasPrefix("VmRSS:") {
            return line.split(separator: " ").dropFirst().first.flatMap { Int($0) }.map { $0 * 1024 }
        }
        return nil
    }
}
