import Errand
import Foundation
import TestSupport
import Testing

/// The data pipeline against real servers: httpbin's `/delay/N` keeps a download open long enough for requests
/// to overlap; nginx serves the blobs that are cached.
@Suite("Data pipeline")
struct DataPipelineTests {
    /// A client whose observer hands every exchange event to a stream, so tests can wait for one.
    private func makeClient(_ kind: TransportKind, base: URL, middleware: [any Middleware] = [])
        -> (APIClient, ExchangeRecorder, AsyncStream<ExchangeEvent>)
    {
        let recorder = ExchangeRecorder()
        let (events, continuation) = AsyncStream.makeStream(of: ExchangeEvent.self)
        let client = APIClient(
            configuration: ClientConfiguration(
                baseURL: base, transport: kind.make(), middleware: middleware,
                observers: [recorder, ClosureObserver { continuation.yield($0) }]))
        return (client, recorder, events)
    }

    /// The first element of a stream, or `nil` if none comes within the time limit.
    private func first<Element: Sendable>(of stream: AsyncStream<Element>, within limit: Duration) async -> Element? {
        await withTaskGroup(of: Element?.self) { group in
            group.addTask { await stream.first { _ in true } }
            group.addTask {
                try? await Task.sleep(for: limit)
                return nil
            }
            let result = await group.next() ?? nil
            group.cancelAll()
            return result
        }
    }

    private func slowURL(seconds: Int) throws -> URL {
        try TestServer.httpbin.url().appendingPathComponent("delay/\(seconds)")
            .appending(queryItems: [URLQueryItem(name: "run", value: UUID().uuidString)])
    }

    @Test(.enabled(if: TestServer.httpbin.isUsable), arguments: TransportKind.allCases)
    func twentyConcurrentRequestsShareOneDownload(kind: TransportKind) async throws {
        let (client, recorder, _) = makeClient(kind, base: try TestServer.httpbin.url())
        // Nothing is cached, so only coalescing can keep this to one download.
        let pipeline = DataPipeline(client: client, configuration: .init(memoryCostLimit: 0))
        let url = try slowURL(seconds: 1)
        let results = try await withThrowingTaskGroup(of: Data.self) { group in
            for _ in 0..<20 { group.addTask { try await pipeline.data(for: url) } }
            return try await group.reduce(into: []) { $0.append($1) }
        }
        #expect(results.count == 20)
        #expect(Set(results).count == 1)
        #expect(results.first.map { !$0.isEmpty } == true)
        #expect(recorder.events.count == 1)
        #expect(await pipeline.activeDownloadCount == 0)
    }

    @Test(.enabled(if: TestServer.httpbin.isUsable), arguments: TransportKind.allCases)
    func aDownloadIsCancelledWhenEveryRequesterCancels(kind: TransportKind) async throws {
        // A middleware just above the transport says when the transfer is handed to the wire.
        let (handedOver, handOver) = AsyncStream.makeStream(of: Void.self)
        let signal = ClosureMiddleware { request, _, next in
            handOver.yield()
            return try await next(request)
        }
        let (client, _, events) = makeClient(kind, base: try TestServer.httpbin.url(), middleware: [signal])
        let pipeline = DataPipeline(client: client)
        let url = try slowURL(seconds: 10)
        let requesters = (0..<2).map { _ in Task { try await pipeline.data(for: url) } }
        #expect(await first(of: handedOver, within: .seconds(30)) != nil)
        for requester in requesters { requester.cancel() }
        for requester in requesters {
            await #expect(throws: ErrandError.self) { try await requester.value }
        }
        #expect(await pipeline.activeDownloadCount == 0)
        // The transfer itself ends as cancelled: had it run to the server's answer, ten seconds on, it would have
        // ended without an error.
        let event = await first(of: events, within: .seconds(30))
        #expect(
            event?.error.map { if case .cancelled = $0 { true } else { false } } == true, "\(String(describing: event))"
        )
    }

    @Test(.enabled(if: TestServer.httpbin.isUsable), arguments: TransportKind.allCases)
    func aRequesterThatCancelsDoesNotStopTheOthers(kind: TransportKind) async throws {
        // A middleware just above the transport says when the shared transfer is on the wire: the download exists
        // then, and the server answers ten seconds later, long after the second requester has come and gone (its
        // cancellation reaches the pipeline through a task of its own, which a loaded machine can hold back seconds).
        let (handedOver, handOver) = AsyncStream.makeStream(of: Void.self)
        let signal = ClosureMiddleware { request, _, next in
            handOver.yield()
            return try await next(request)
        }
        let (client, recorder, _) = makeClient(kind, base: try TestServer.httpbin.url(), middleware: [signal])
        let pipeline = DataPipeline(client: client)
        let url = try slowURL(seconds: 10)
        let staying = Task { try await pipeline.data(for: url) }
        #expect(await first(of: handedOver, within: .seconds(30)) != nil)
        let leaving = Task { try await pipeline.data(for: url) }
        leaving.cancel()
        let error = await #expect(throws: ErrandError.self) { try await leaving.value }
        #expect(error.map { if case .cancelled = $0 { true } else { false } } == true)
        let data = try await staying.value
        #expect(!data.isEmpty)
        #expect(recorder.events.count == 1 && recorder.events.first?.error == nil)
        #expect(pipeline.cachedData(for: url) == data)
    }

    @Test(.enabled(if: TestServer.nginxHTTP.isUsable), arguments: TransportKind.allCases)
    func prefetchedBlobsAreKeptInMemoryAndOnDisk(kind: TransportKind) async throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let file = folder.file("images.sqlite")
        let routes = try ["max-age-60", "none", "no-store"].map { try CacheRoute($0, file: "big.json") }
        let (client, recorder, _) = makeClient(kind, base: try TestServer.nginxHTTP.url())
        let pipeline = try DataPipeline(client: client, fileURL: file)
        await pipeline.prefetch(routes.map(\.url))
        for route in routes {
            #expect(try await pipeline.data(for: route.url) == (try route.fileContents("big.json")))
            #expect(try await pipeline.data(for: route.url) == pipeline.cachedData(for: route.url))
        }
        #expect(recorder.events.count == routes.count)

        // Another pipeline on the same file needs no download at all.
        let (offlineClient, offlineRecorder, _) = makeClient(kind, base: try TestServer.nginxHTTP.url())
        let reopened = try DataPipeline(client: offlineClient, fileURL: file)
        for route in routes {
            #expect(try await reopened.data(for: route.url) == (try route.fileContents("big.json")))
        }
        #expect(offlineRecorder.events.isEmpty)
        for route in routes { #expect(try await route.served(using: kind).count == 1) }
    }

    @Test(.enabled(if: TestServer.nginxHTTP.isUsable), arguments: TransportKind.allCases)
    func aFailedDownloadFailsEveryRequesterAndIsNotCached(kind: TransportKind) async throws {
        let (client, recorder, _) = makeClient(kind, base: try TestServer.nginxHTTP.url())
        let pipeline = DataPipeline(client: client)
        let missing = try TestServer.nginxHTTP.url().appendingPathComponent("no-such-image-\(UUID().uuidString).jpg")
        for _ in 0..<2 {
            let error = await #expect(throws: ErrandError.self) { try await pipeline.data(for: missing) }
            #expect(error?.status == 404)
        }
        #expect(recorder.events.count == 2)
    }
}
