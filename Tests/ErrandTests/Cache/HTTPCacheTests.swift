import Errand
import ErrandTesting
import Foundation
import TestSupport
import Testing

/// The cache against nginx's /cache/ routes, with every transport. Each test uses URLs with a unique token and
/// counts what reached the server both in the chain (a counter below the cache) and in nginx's own log.
@Suite("HTTP cache over the wire", .enabled(if: TestServer.nginxHTTP.isUsable))
struct HTTPCacheTests {
    @Test(arguments: TransportKind.allCases)
    func aFreshHitMakesNoRequest(kind: TransportKind) async throws {
        let route = try CacheRoute("max-age-60")
        let counter = WireCounter()
        let recorder = ExchangeRecorder()
        let client = try makeClient(kind, cache: HTTPCache(), below: [counter], observers: [recorder])

        let first = try await client.send(get(route.url))
        let second = try await client.send(get(route.url))

        #expect(first.cacheStatus == .miss)
        #expect(second.cacheStatus == .hit)
        let contents = try route.fileContents()
        #expect(first.data == contents)
        #expect(second.data == first.data && second.status == 200)
        #expect(second.headers["ETag"] == first.headers["ETag"])
        #expect(second.headers["Age"] != nil)
        #expect(counter.count == 1)
        #expect(try await route.served(using: kind).count == 1)
        #expect(recorder.events.map(\.cacheStatus) == [.miss, .hit])
        #expect(recorder.events.last?.status == 200 && recorder.events.last?.bytesReceived == 0)
    }

    @Test(arguments: TransportKind.allCases)
    func aDiskCacheAnswersAfterReopening(kind: TransportKind) async throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let route = try CacheRoute("max-age-60", file: "big.json")
        let file = folder.file("errand/test.sqlite")
        let counter = WireCounter()
        let first = try await makeClient(kind, cache: HTTPCache(fileURL: file), below: [counter]).send(get(route.url))
        let reopened = try HTTPCache(fileURL: file)
        #expect(reopened.diskEntryCount == 1)
        let second = try await makeClient(kind, cache: reopened, below: [counter]).send(get(route.url))

        #expect(second.cacheStatus == .hit)
        let contents = try route.fileContents("big.json")
        #expect(second.data == first.data && first.data == contents)
        #expect(counter.count == 1)
        #expect(try await route.served(using: kind).count == 1)
    }

    @Test(arguments: TransportKind.allCases, ["max-age-0", "no-cache", "must-revalidate"])
    func aStaleEntryRevalidatesWithOneConditionalRequest(kind: TransportKind, policy: String) async throws {
        let route = try CacheRoute(policy)
        let counter = WireCounter()
        let recorder = ExchangeRecorder()
        let client = try makeClient(kind, cache: HTTPCache(), below: [counter], observers: [recorder])

        let first = try await client.send(get(route.url))
        let second = try await client.send(get(route.url))

        #expect(first.cacheStatus == .miss)
        #expect(second.cacheStatus == .revalidated)
        #expect(second.status == 200 && second.data == first.data)
        #expect(counter.count == 2)
        let served = try await route.served(using: kind)
        #expect(served.map(\.status) == [200, 304])
        #expect(served.first?.ifNoneMatch == nil)
        let etag = try #require(first.headers["ETag"])
        #expect(served.last?.ifNoneMatch == etag)
        #expect(served.last?.ifModifiedSince == first.headers["Last-Modified"])
        #expect(recorder.events.map(\.cacheStatus) == [.miss, .revalidated])
        #expect(recorder.events.map(\.status) == [200, 304])
    }

    @Test(arguments: TransportKind.allCases)
    func lastModifiedAloneRevalidatesWithIfModifiedSince(kind: TransportKind) async throws {
        let route = try CacheRoute("last-modified-only")
        let client = try makeClient(kind, cache: HTTPCache())
        let first = try await client.send(get(route.url))
        let second = try await client.send(get(route.url))

        #expect(first.headers["ETag"] == nil)
        #expect(second.cacheStatus == .revalidated && second.data == first.data)
        let served = try await route.served(using: kind)
        #expect(served.map(\.status) == [200, 304])
        #expect(served.last?.ifModifiedSince == first.headers["Last-Modified"])
        #expect(served.last?.ifNoneMatch == nil)
    }

    @Test(arguments: TransportKind.allCases)
    func noStoreIsNeverWritten(kind: TransportKind) async throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let route = try CacheRoute("no-store")
        let cache = try HTTPCache(fileURL: folder.file("c.sqlite"))
        let client = try makeClient(kind, cache: cache)

        let first = try await client.send(get(route.url))
        let second = try await client.send(get(route.url))

        #expect(first.cacheStatus == .miss && second.cacheStatus == .miss)
        #expect(cache.diskEntryCount == 0 && cache.memoryByteCount == 0)
        let served = try await route.served(using: kind)
        #expect(served.map(\.status) == [200, 200])
        #expect(served.allSatisfy { $0.ifNoneMatch == nil && $0.ifModifiedSince == nil })
    }

    @Test(arguments: TransportKind.allCases)
    func aPrivateResponseIsStoredByThisPrivateCache(kind: TransportKind) async throws {
        let route = try CacheRoute("private")
        let client = try makeClient(kind, cache: HTTPCache())
        _ = try await client.send(get(route.url))
        #expect(try await client.send(get(route.url)).cacheStatus == .hit)
        #expect(try await route.served(using: kind).count == 1)
    }

    @Test(arguments: TransportKind.allCases)
    func varyKeepsVariantsApart(kind: TransportKind) async throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let route = try CacheRoute("vary")
        let cache = try HTTPCache(fileURL: folder.file("c.sqlite"))
        let client = try makeClient(kind, cache: cache)
        let english: HTTPHeaders = ["Accept-Language": "en"]
        let german: HTTPHeaders = ["Accept-Language": "de"]

        #expect(try await client.send(get(route.url, headers: english)).cacheStatus == .miss)
        #expect(try await client.send(get(route.url, headers: german)).cacheStatus == .miss)
        #expect(try await client.send(get(route.url, headers: english)).cacheStatus == .hit)
        #expect(try await client.send(get(route.url, headers: german)).cacheStatus == .hit)
        #expect(try await client.send(get(route.url)).cacheStatus == .miss)
        #expect(cache.diskEntryCount == 3)
        #expect(try await route.served(using: kind).count == 3)
    }

    @Test(arguments: TransportKind.allCases)
    func varyStarIsNotStored(kind: TransportKind) async throws {
        let route = try CacheRoute("vary-star")
        let cache = HTTPCache()
        let client = try makeClient(kind, cache: cache)
        _ = try await client.send(get(route.url))
        #expect(try await client.send(get(route.url)).cacheStatus == .miss)
        #expect(cache.memoryByteCount == 0)
        #expect(try await route.served(using: kind).count == 2)
    }

    @Test(arguments: TransportKind.allCases)
    func theTTLOverrideGivesSilentResponsesALifetime(kind: TransportKind) async throws {
        let route = try CacheRoute("none")
        let client = try makeClient(kind, cache: HTTPCache(configuration: .init(defaultTTL: .seconds(60))))
        #expect(try await client.send(get(route.url)).cacheStatus == .miss)
        #expect(try await client.send(get(route.url)).cacheStatus == .hit)
        // A request can shorten (or lengthen) the client's TTL.
        let zero = get(route.url).with(CacheTTLKey.self, .zero)
        #expect(try await client.send(zero).cacheStatus == .revalidated)
        #expect(try await route.served(using: kind).map(\.status) == [200, 304])

        // The override never beats what the server states.
        let stated = try CacheRoute("max-age-0")
        _ = try await client.send(get(stated.url))
        #expect(try await client.send(get(stated.url)).cacheStatus == .revalidated)
    }

    @Test(arguments: TransportKind.allCases)
    func cacheOnlyServesOfflineAndAMissFailsClearly(kind: TransportKind) async throws {
        let fresh = try CacheRoute("max-age-60")
        let stale = try CacheRoute("max-age-0")
        let network = NetworkSwitch()
        let recorder = ExchangeRecorder()
        let cache = HTTPCache()
        let client = try makeClient(kind, cache: cache, below: [network], observers: [recorder])
        let online = try await client.send(get(fresh.url))
        _ = try await client.send(get(stale.url))
        network.cut()

        let offline = get(fresh.url).with(CachePolicyKey.self, .cacheOnly)
        let hit = try await client.send(offline)
        #expect(hit.cacheStatus == .hit && hit.data == online.data)
        #expect(try await client.send(get(stale.url).with(CachePolicyKey.self, .cacheOnly)).cacheStatus == .stale)

        let missing = try CacheRoute("max-age-60", file: "big.json")
        let error = await #expect(throws: ErrandError.self) {
            try await client.send(get(missing.url).with(CachePolicyKey.self, .cacheOnly))
        }
        guard case .notCached(let url) = error else {
            Issue.record("expected notCached, got \(String(describing: error))")
            return
        }
        #expect(url == missing.url)
        #expect(error?.userMessage.contains("not cached") == true)
        // The offline answers never reached a transport: only the two online fetches did.
        #expect(recorder.events.map(\.cacheStatus) == [.miss, .miss, .hit, .stale, .miss])
        #expect(recorder.events.last?.error != nil)
        #expect(try await missing.served(using: kind).isEmpty)

        // A whole client can be offline through the cache's configured policy.
        let offlineClient = try makeClient(kind, cache: HTTPCache(configuration: .init(policy: .cacheOnly)))
        await #expect(throws: ErrandError.self) { try await offlineClient.send(get(fresh.url)) }
    }

    @Test(arguments: TransportKind.allCases)
    func staleIfErrorServesAStaleEntryWhenTheNetworkFails(kind: TransportKind) async throws {
        let stale = try CacheRoute("max-age-0")
        let guarded = try CacheRoute("must-revalidate")
        let network = NetworkSwitch()
        let recorder = ExchangeRecorder()
        let cache = HTTPCache(configuration: .init(staleIfError: .seconds(600)))
        let client = try makeClient(kind, cache: cache, below: [network], observers: [recorder])
        let online = try await client.send(get(stale.url))
        _ = try await client.send(get(guarded.url))
        network.cut()

        let served = try await client.send(get(stale.url))
        #expect(served.cacheStatus == .stale && served.data == online.data)
        let events = recorder.events.suffix(2)
        #expect(events.first?.error?.isTransport(.cannotConnect) == true)
        #expect(events.last?.cacheStatus == .stale && events.last?.status == 200)

        // must-revalidate forbids serving stale, even on error.
        let error = await #expect(throws: ErrandError.self) { try await client.send(get(guarded.url)) }
        #expect(error?.isTransport(.cannotConnect) == true)

        // Without stale-if-error the failure comes through.
        let strict = try makeClient(kind, cache: HTTPCache(), below: [network])
        await #expect(throws: ErrandError.self) { try await strict.send(get(stale.url)) }
    }

    @Test(arguments: TransportKind.allCases)
    func reloadAndReturnCacheElseLoadFollowTheirPolicies(kind: TransportKind) async throws {
        let route = try CacheRoute("max-age-0")
        let client = try makeClient(kind, cache: HTTPCache())
        _ = try await client.send(get(route.url))
        let reloaded = try await client.send(get(route.url).with(CachePolicyKey.self, .reload))
        #expect(reloaded.cacheStatus == .miss)
        let cached = try await client.send(get(route.url).with(CachePolicyKey.self, .returnCacheElseLoad))
        #expect(cached.cacheStatus == .stale)
        let served = try await route.served(using: kind)
        #expect(served.map(\.status) == [200, 200])
        #expect(served.allSatisfy { $0.ifNoneMatch == nil })
    }

    @Test(arguments: TransportKind.allCases)
    func eightTasksSharingACacheGetTheRightBodies(kind: TransportKind) async throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let cache = try HTTPCache(fileURL: folder.file("c.sqlite"), configuration: .init(memoryCostLimit: 0))
        let client = try makeClient(kind, cache: cache)
        let routes = try ["max-age-60", "max-age-0", "no-cache", "private", "none", "vary"].flatMap { policy in
            try ["small.json", "big.json"].map { (try CacheRoute(policy, file: $0), $0) }
        }
        let expected = try Dictionary(
            uniqueKeysWithValues: ["small.json", "big.json"].map { ($0, try routes[0].0.fileContents($0)) })
        try await withThrowingTaskGroup(of: Void.self) { group in
            for task in 0..<8 {
                group.addTask {
                    for step in 0..<12 {
                        let (route, file) = routes[(task + step) % routes.count]
                        let response = try await client.send(get(route.url))
                        #expect(response.data == expected[file], "\(route.url) \(response.cacheStatus)")
                    }
                }
            }
            try await group.waitForAll()
        }
        #expect(cache.diskEntryCount == routes.count)
    }
}

@Suite("HTTP cache rules without a wire")
struct HTTPCacheStubTests {
    @Test func aSuccessfulUnsafeRequestInvalidatesTheURL() async throws {
        let stub = StubTransport()
        stub.respond(to: "item", headers: ["Cache-Control": "max-age=600"], body: Data("v1".utf8))
        stub.register(.post, path: "item", reply: .response(status: 204, headers: [:], body: Data()))
        let client = APIClient(
            configuration: ClientConfiguration(
                baseURL: try #require(URL(string: "https://api.example")), transport: stub, middleware: [HTTPCache()]))
        _ = try await client.send(Request<Data>(path: "item"))
        #expect(try await client.send(Request<Data>(path: "item")).cacheStatus == .hit)
        _ = try await client.send(Request<Void>(method: .post, path: "item"))
        #expect(try await client.send(Request<Data>(path: "item")).cacheStatus == .miss)
        #expect(stub.requests.count == 3)
    }

    @Test func requestsWithTheirOwnValidatorsPassThroughUntouched() async throws {
        let stub = StubTransport()
        stub.respond(to: "item", headers: ["Cache-Control": "max-age=600", "ETag": "\"1\""], body: Data("v1".utf8))
        let client = APIClient(
            configuration: ClientConfiguration(
                baseURL: try #require(URL(string: "https://api.example")), transport: stub, middleware: [HTTPCache()]))
        _ = try await client.send(Request<Data>(path: "item"))
        let own = try await client.send(Request<Data>(path: "item", headers: ["If-None-Match": "\"0\""]))
        #expect(own.cacheStatus == .notUsed)
        #expect(stub.requests.last?.headers["If-None-Match"] == "\"0\"")
    }

    @Test func aRequestSayingNoStoreIsNeitherServedNorStored() async throws {
        let stub = StubTransport()
        stub.respond(to: "item", headers: ["Cache-Control": "max-age=600"], body: Data("v1".utf8))
        let cache = HTTPCache()
        let client = APIClient(
            configuration: ClientConfiguration(
                baseURL: try #require(URL(string: "https://api.example")), transport: stub, middleware: [cache]))
        let response = try await client.send(Request<Data>(path: "item", headers: ["Cache-Control": "no-store"]))
        #expect(response.cacheStatus == .miss)
        #expect(cache.memoryByteCount == 0)
    }

    @Test func aServerErrorServesStaleWhenAllowed() async throws {
        let stub = StubTransport()
        stub.respond(to: "item", headers: ["Cache-Control": "max-age=0, stale-if-error=60"], body: Data("v1".utf8))
        let client = APIClient(
            configuration: ClientConfiguration(
                baseURL: try #require(URL(string: "https://api.example")), transport: stub, middleware: [HTTPCache()]))
        _ = try await client.send(Request<Data>(path: "item"))
        stub.respond(to: "item", status: 503, body: Data("down".utf8))
        let response = try await client.send(Request<Data>(path: "item"))
        #expect(response.cacheStatus == .stale && response.value == Data("v1".utf8))
    }
}
