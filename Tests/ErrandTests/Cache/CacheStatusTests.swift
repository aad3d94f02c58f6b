import Errand
import ErrandTesting
import Foundation
import Synchronization
import Testing

/// The cache's status on the responses it returns and on the transfers it passes on, without a wire.
@Suite("Cache status: on the response, and on each transfer the cache passes on")
struct CacheStatusTests {
    let root = URL(string: "https://cache.example")!

    func client(_ stub: StubTransport, cache: HTTPCache?, recorder: ExchangeRecorder) -> APIClient {
        APIClient(
            configuration: ClientConfiguration(
                baseURL: root, transport: stub, middleware: cache.map { [$0] } ?? [], observers: [recorder]))
    }

    @Test("a miss, then a hit: the responses and the events say so, the transfer labelled miss")
    func missThenHit() async throws {
        let stub = StubTransport()
        stub.respond(to: "item", headers: ["Cache-Control": "max-age=600"], body: Data("v1".utf8))
        let recorder = ExchangeRecorder()
        let client = client(stub, cache: HTTPCache(), recorder: recorder)
        #expect(try await client.send(Request<Data>(path: "item")).cacheStatus == .miss)
        #expect(try await client.send(Request<Data>(path: "item")).cacheStatus == .hit)
        #expect(recorder.events.map(\.cacheStatus) == [.miss, .hit])
        #expect(stub.requests.count == 1)
    }

    @Test("a stale entry with a validator: the conditional transfer answered 304 is revalidated")
    func revalidated() async throws {
        let stub = StubTransport()
        stub.register(
            path: "item",
            reply: .dynamic { request in
                let headers: HTTPHeaders = ["Cache-Control": "max-age=0", "ETag": "\"v1\""]
                let status = request.headers["If-None-Match"] == "\"v1\"" ? 304 : 200
                return TransportResponse(status: status, headers: headers, body: Data("v1".utf8), url: request.url)
            })
        let recorder = ExchangeRecorder()
        let client = client(stub, cache: HTTPCache(), recorder: recorder)
        _ = try await client.send(Request<Data>(path: "item"))
        let second = try await client.send(Request<Data>(path: "item"))
        #expect(second.cacheStatus == .revalidated && second.value == Data("v1".utf8))
        #expect(recorder.events.map(\.cacheStatus) == [.miss, .revalidated])
        #expect(recorder.events.map(\.status) == [200, 304])
    }

    @Test("a conditional request answered 200 is a miss: the new body was fetched")
    func changedOnRevalidation() async throws {
        let stub = StubTransport()
        let calls = Mutex(0)
        stub.register(
            path: "item",
            reply: .dynamic { request in
                let call = calls.withLock { count in
                    count += 1
                    return count
                }
                let headers: HTTPHeaders = ["Cache-Control": "max-age=0", "ETag": "\"v\(call)\""]
                return TransportResponse(status: 200, headers: headers, body: Data("v\(call)".utf8), url: request.url)
            })
        let recorder = ExchangeRecorder()
        let client = client(stub, cache: HTTPCache(), recorder: recorder)
        _ = try await client.send(Request<Data>(path: "item"))
        let second = try await client.send(Request<Data>(path: "item"))
        #expect(second.cacheStatus == .miss && second.value == Data("v2".utf8))
        #expect(stub.requests.last?.headers["If-None-Match"] == "\"v1\"")
        #expect(recorder.events.map(\.cacheStatus) == [.miss, .miss])
    }

    @Test("without a cache, and for what the cache does not take part in, transfers are not labelled")
    func notUsed() async throws {
        let stub = StubTransport()
        stub.respond(to: "item", headers: ["Cache-Control": "max-age=600"], body: Data("v1".utf8))
        let recorder = ExchangeRecorder()
        let plain = client(stub, cache: nil, recorder: recorder)
        #expect(try await plain.send(Request<Data>(path: "item")).cacheStatus == .notUsed)
        let cached = client(stub, cache: HTTPCache(), recorder: recorder)
        #expect(try await cached.send(Request<Data>(method: .post, path: "item")).cacheStatus == .notUsed)
        #expect(recorder.events.map(\.cacheStatus) == [.notUsed, .notUsed])
    }

    @Test("a failed transfer the cache passed on is labelled miss")
    func failedTransfer() async throws {
        let stub = StubTransport()
        stub.fail("item", with: .transport(TransportFailure(kind: .connectionLost, underlying: "reset")))
        let recorder = ExchangeRecorder()
        let client = client(stub, cache: HTTPCache(), recorder: recorder)
        await #expect(throws: ErrandError.self) { try await client.send(Request<Data>(path: "item")) }
        #expect(recorder.events.map(\.cacheStatus) == [.miss])
        #expect(recorder.events.first?.error != nil)
    }
}
