import Errand
import Foundation
import Synchronization

/// A transport that answers from canned routes and records every request, for unit tests without a network.
///
/// ```swift
/// let stub = StubTransport()
/// stub.respond(to: "search.php", json: #"{"meals":null}"#)
/// let client = APIClient(configuration: ClientConfiguration(baseURL: URL(string: "https://example.com")!, transport: stub))
/// ```
/// A route matches when its path matches the request's and its method matches (any method when `nil`); the most
/// recently added matching route wins. An unmatched request answers 404.
///
/// A route path that starts with `/` must be the request's whole path (`/api/json/v2/search.php`); any other names
/// the path's last segments, whole: `search.php` answers `…/v1/1/search.php` and `…/v2/search.php`, never
/// `…/research.php`; `objects/9` answers `…/objects/9`, never `…/objects/19`. An empty route path answers every
/// path.
public final class StubTransport: Transport {
    /// What a route answers.
    public enum Reply: Sendable {
        /// A response.
        case response(status: Int, headers: HTTPHeaders, body: Data)
        /// A failure, thrown as is.
        case failure(ErrandError)
        /// A function of the request.
        case dynamic(@Sendable (TransportRequest) async throws -> TransportResponse)
    }

    private struct Route {
        var method: HTTPMethod?
        var path: String
        var reply: Reply
    }

    private struct State {
        var routes: [Route] = []
        var requests: [TransportRequest] = []
    }

    private let state = Mutex(State())

    /// Creates a stub with no routes.
    public init() {}

    /// Adds a route.
    public func register(_ method: HTTPMethod? = nil, path: String, reply: Reply) {
        state.withLock { $0.routes.append(Route(method: method, path: path, reply: reply)) }
    }

    /// Adds a route answering JSON text.
    public func respond(to path: String, status: Int = 200, json: String) {
        register(
            path: path,
            reply: .response(
                status: status, headers: ["Content-Type": "application/json"], body: Data(json.utf8)))
    }

    /// Adds a route answering raw bytes.
    public func respond(to path: String, status: Int = 200, headers: HTTPHeaders = [:], body: Data) {
        register(path: path, reply: .response(status: status, headers: headers, body: body))
    }

    /// Adds a route that fails.
    public func fail(_ path: String, with error: ErrandError) {
        register(path: path, reply: .failure(error))
    }

    /// Every request seen, in order.
    public var requests: [TransportRequest] { state.withLock { $0.requests } }

    /// Whether a request's path matches a route's path (see the type's documentation).
    static func path(_ path: String, matches route: String) -> Bool {
        if route.isEmpty { return true }
        if route.hasPrefix("/") { return path == route }
        let wanted = route.split(separator: "/", omittingEmptySubsequences: false)
        let segments = path.split(separator: "/", omittingEmptySubsequences: false)
        return segments.count >= wanted.count && segments.suffix(wanted.count).elementsEqual(wanted)
    }

    /// Forgets the recorded requests (the routes stay).
    public func clearRequests() { state.withLock { $0.requests.removeAll() } }

    /// Answers from the routes.
    public func send(_ request: TransportRequest) async throws -> TransportResponse {
        let route: Route? = state.withLock { state in
            state.requests.append(request)
            return state.routes.last { route in
                (route.method == nil || route.method == request.method)
                    && Self.path(request.url.path, matches: route.path)
            }
        }
        try Task.checkCancellation()
        guard let route else {
            return TransportResponse(
                status: 404, headers: ["Content-Type": "text/plain"], body: Data("no stub route".utf8), url: request.url
            )
        }
        switch route.reply {
        case .response(let status, let headers, let body):
            guard body.count <= request.maxResponseBodySize else {
                throw ErrandError.bodyTooLarge(limit: request.maxResponseBodySize)
            }
            return TransportResponse(
                status: status, headers: headers, body: body, url: request.url,
                metrics: TransferMetrics(bytesReceived: body.count))
        case .failure(let error):
            throw error
        case .dynamic(let answer):
            return try await answer(request)
        }
    }
}
