@testable import Errand
import Foundation
import Synchronization
import TestSupport

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A fresh folder under the system's temporary directory, removed by `remove()`.
struct TemporaryFolder {
    let url: URL

    init() throws {
        url = FileManager.default.temporaryDirectory.appendingPathComponent("errand-cache-tests-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
    }

    func file(_ name: String) -> URL { url.appendingPathComponent(name) }

    func remove() { try? FileManager.default.removeItem(at: url) }
}

/// The folder `scripts/test` keeps the servers' files and logs in.
func serversState() throws -> String {
    guard let state = TestServer.environment("SERVERS_STATE") else { throw MissingServersState() }
    return state
}

/// `SERVERS_STATE` is not set: the tests were not started by scripts/test.
struct MissingServersState: Error, CustomStringConvertible {
    var description: String { "SERVERS_STATE is not set: run the tests with scripts/test" }
}

/// What nginx logged for the /cache/ routes: one line per request it received.
enum NginxCacheLog {
    /// A request nginx received.
    struct Entry {
        var uri: String
        var status: Int
        var ifNoneMatch: String?
        var ifModifiedSince: String?
    }

    /// The requests whose URI contains `token` (tests put a unique token in each URL's query).
    static func requests(containing token: String) throws -> [Entry] {
        let state = try serversState()
        let text = (try? String(contentsOfFile: state + "/nginx-cache-access.log", encoding: .utf8)) ?? ""
        return text.split(separator: "\n").filter { $0.contains(token) }.compactMap { line in
            let parts = line.split(separator: " ", maxSplits: 2).map(String.init)
            guard parts.count == 3, let status = Int(parts[1]) else { return nil }
            func value(_ name: String) -> String? {
                guard let start = parts[2].range(of: name + "=\"") else { return nil }
                let rest = parts[2][start.upperBound...]
                let value = String(rest[..<(rest.range(of: "\" ")?.lowerBound ?? rest.index(before: rest.endIndex))])
                // nginx escapes a quote in a logged value as \x22.
                return value == "-" ? nil : value.replacingOccurrences(of: "\\x22", with: "\"")
            }
            return Entry(uri: parts[0], status: status, ifNoneMatch: value("inm"), ifModifiedSince: value("ims"))
        }
    }
}

/// A unique URL on one of nginx's /cache/ routes: the token in its query keys it apart from every other test's.
struct CacheRoute {
    let url: URL
    let token: String

    init(_ route: String, file: String = "small.json") throws {
        token = UUID().uuidString
        let base = try TestServer.nginxHTTP.url()
        url = base.appendingPathComponent("cache/\(route)/\(file)").appending(queryItems: [
            URLQueryItem(name: "run", value: token)
        ])
    }

    /// What nginx received for this URL, once every earlier request has surely been logged.
    ///
    /// nginx logs a request as it finishes it, which may be just after the client has the response. Its single
    /// worker handles requests in turn, so once a later sentinel request shows up in the log, every request made
    /// before it is there too.
    func served(using kind: TransportKind) async throws -> [NginxCacheLog.Entry] {
        let sentinel = "sentinel-" + UUID().uuidString
        let base = try TestServer.nginxHTTP.url()
        let url = base.appendingPathComponent("cache/none/small.json").appending(queryItems: [
            URLQueryItem(name: "s", value: sentinel)
        ])
        _ = try await kind.make().send(TransportRequest(url: url))
        let deadline = ContinuousClock.now + .seconds(5)
        while try NginxCacheLog.requests(containing: sentinel).isEmpty, ContinuousClock.now < deadline {
            try await Task.sleep(for: .milliseconds(10))  // polling the log file for the sentinel's line
        }
        return try NginxCacheLog.requests(containing: token)
    }

    /// The file's bytes as nginx serves them, read from its folder.
    func fileContents(_ file: String = "small.json") throws -> Data {
        let state = try serversState()
        return try Data(contentsOf: URL(fileURLWithPath: state + "/www/" + file))
    }
}

/// Counts the requests that pass below the cache on their way to the transport.
final class WireCounter: Middleware {
    private let counted = Mutex(0)

    var count: Int { counted.withLock { $0 } }

    func intercept(_ request: TransportRequest, context: MiddlewareContext, next: Next) async throws
        -> TransportResponse
    {
        counted.withLock { $0 += 1 }
        return try await next(request)
    }
}

/// Sends every request to a closed port on 127.0.0.1 while `isDown`, as if the network had gone: the transport
/// really fails with "connection refused".
final class NetworkSwitch: Middleware {
    private let down = Mutex(false)
    private let closedPort: Int

    init() { closedPort = Self.closedLoopbackPort() }

    func cut() { down.withLock { $0 = true } }

    func intercept(_ request: TransportRequest, context: MiddlewareContext, next: Next) async throws
        -> TransportResponse
    {
        guard down.withLock({ $0 }) else { return try await next(request) }
        var request = request
        var components = URLComponents(url: request.url, resolvingAgainstBaseURL: false)
        components?.host = "127.0.0.1"
        components?.port = closedPort
        request.url = components?.url ?? request.url
        return try await next(request)
    }

    /// A port nothing listens on: bound to learn a free number, then closed.
    static func closedLoopbackPort() -> Int {
        #if canImport(Glibc)
        let descriptor = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        #else
        let descriptor = socket(AF_INET, SOCK_STREAM, 0)
        #endif
        defer { close(descriptor) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        address.sin_port = 0
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        _ = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(descriptor, $0, length) }
        }
        _ = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(descriptor, $0, &length) }
        }
        return Int(UInt16(bigEndian: address.sin_port))
    }
}

/// A client for tests: the cache outermost, then any extra middleware, then the given transport.
func makeClient(
    _ kind: TransportKind, cache: HTTPCache, below: [any Middleware] = [], observers: [any ExchangeObserver] = []
) throws -> APIClient {
    APIClient(
        configuration: ClientConfiguration(
            baseURL: try TestServer.nginxHTTP.url(), transport: kind.make(), middleware: [cache] + below,
            observers: observers))
}

/// A `GET` for raw bytes at an absolute URL.
func get(_ url: URL, headers: HTTPHeaders = [:]) -> Request<Data> {
    Request<Data>(url: url, headers: headers)
}

/// A stored response built from literal headers, for tests of the store and of freshness.
func makeEntry(
    url: String, variant: String = "", headers: HTTPHeaders = [:], body: Data = Data("body".utf8),
    received: Date = Date()
) -> CachedResponse {
    CachedResponse(
        url: url, variant: variant, status: 200, headers: headers, body: body, requestTime: received,
        responseTime: received)
}
