@testable import Errand
import ErrandTesting
import Foundation
import TestSupport

/// A URL on the fault server's `/cache/{key}` route: it answers with the header lines the test names and counts
/// what it receives, under a key no other test uses.
struct CacheServerRoute {
    let key: String
    let url: URL

    /// A route answering with `lines` (`Name: value`, in order, repeats kept); from its second request on with
    /// `later` instead, when given. `extra` adds query items (`etag`, `status`, `location`, …).
    init(_ lines: [String], later: [String]? = nil, extra: [String: String] = [:]) throws {
        key = "cache-" + UUID().uuidString
        let base = try TestServer.fault.url()
        var items = lines.map { URLQueryItem(name: "h", value: $0) }
        items += (later ?? []).map { URLQueryItem(name: "h2", value: $0) }
        items += extra.sorted { $0.key < $1.key }.map { URLQueryItem(name: $0.key, value: $0.value) }
        url = base.appendingPathComponent("cache/\(key)").appending(queryItems: items)
    }

    /// The path and query, for a `Location` the server should send.
    var pathAndQuery: String {
        let components = URLComponents(url: url, resolvingAgainstBaseURL: false)
        return (components?.percentEncodedPath ?? "") + "?" + (components?.percentEncodedQuery ?? "")
    }

    /// How many requests the server has received for this route.
    func count() async throws -> Int {
        try await log().count
    }

    /// The requests the server received for this route, in order: method and headers.
    func log() async throws -> [(method: String, headers: [String: String])] {
        let base = try TestServer.fault.url()
        let logURL = base.appendingPathComponent("__log").appending(queryItems: [URLQueryItem(name: "key", value: key)])
        let response = try await URLSessionTransport().send(TransportRequest(url: logURL))
        let entries = try JSONSerialization.jsonObject(with: response.body) as? [[String: Any]] ?? []
        return entries.map { entry in
            (entry["method"] as? String ?? "", entry["headers"] as? [String: String] ?? [:])
        }
    }
}

/// Where a test's cache keeps its entries: memory, or the SQLite file with nothing in memory, so every read is a
/// read of the file.
enum StoreKind: String, CaseIterable, Sendable, CustomStringConvertible {
    case memory
    case sqlite

    /// A cache of this kind; a file's folder is removed by `cleanUp`.
    func make(_ configuration: HTTPCache.Configuration = .init()) throws -> (cache: HTTPCache, cleanUp: () -> Void) {
        switch self {
        case .memory:
            return (HTTPCache(configuration: configuration), {})
        case .sqlite:
            let folder = try TemporaryFolder()
            var diskOnly = configuration
            diskOnly.memoryCostLimit = 0
            return (try HTTPCache(fileURL: folder.file("cache.sqlite"), configuration: diskOnly), { folder.remove() })
        }
    }

    var description: String { rawValue }
}

/// A client on the fault server with a cache on top, a counter and any middleware below it, and a manual clock.
struct CacheHarness {
    let cache: HTTPCache
    let client: APIClient
    let clock = ManualClock()
    let counter = WireCounter()
    let recorder = ExchangeRecorder()
    private let cleanUp: () -> Void

    init(
        _ transport: TransportKind, _ store: StoreKind, configuration: HTTPCache.Configuration = .init(),
        below: [any Middleware] = []
    ) throws {
        let made = try store.make(configuration)
        cache = made.cache
        cleanUp = made.cleanUp
        var client = ClientConfiguration(
            baseURL: try TestServer.fault.url(), transport: transport.make(),
            middleware: [made.cache, counter] + below, observers: [recorder])
        client.clock = clock
        self.client = APIClient(configuration: client)
    }

    /// A `GET` (or another method) for raw bytes, accepting any status.
    func send(
        _ url: URL, method: HTTPMethod = .get, headers: HTTPHeaders = [:], options: RequestCacheControl? = nil
    ) async throws -> Response<Data> {
        var request = Request<Data>(method: method, url: url, headers: headers)
        request.acceptedStatusCodes = Set(100..<600)
        if let options { request = request.with(RequestCacheControlKey.self, options) }
        return try await client.send(request)
    }

    /// Moves the client's clock on.
    func advance(seconds: Int) {
        clock.advance(by: .seconds(seconds))
    }

    func finish() { cleanUp() }
}
