import Errand
import Foundation
import MetMuseum

/// A transport that answers the Met's API from a mirror: the SDK, and everything built on it, works offline
/// unchanged.
///
/// `objects/{id}` answers the JSON as served (404 `ObjectID not found`, or `Not a valid object` for what the Met
/// did not serve), `objects` the stored IDs with the same filters, `departments` the stored list, `search` the
/// mirror's full-text search (``MirrorStore/search(_:)``). Nothing goes to the network.
public struct MirrorTransport: Transport {
    /// The mirror answering.
    public let store: MirrorStore

    /// Answers from `store`.
    public init(store: MirrorStore) {
        self.store = store
    }

    /// Answers one request from the mirror.
    public func send(_ request: TransportRequest) async throws -> TransportResponse {
        try Task.checkCancellation()
        let path = request.url.pathComponents
        guard request.method == .get, let start = path.lastIndex(of: "v1"), start + 1 < path.count else {
            return Self.json(404, ["message": "Not Found"], for: request)
        }
        let route = Array(path[(start + 1)...])
        let query = Self.queryItems(request.url)
        switch route {
        case ["departments"]:
            let list = try store.departments().map {
                ["departmentId": $0.id, "displayName": $0.displayName] as [String: Any]
            }
            return Self.json(200, ["departments": list], for: request)
        case ["objects"]:
            let departments = (query["departmentIds"] ?? "").split(separator: "|").compactMap { Int($0) }
            let ids = try store.objectIDs(updatedSince: query["metadataDate"], departmentIDs: departments)
            return Self.json(200, ["total": ids.count, "objectIDs": ids], for: request)
        case ["search"]:
            let found = try store.search(Self.searchQuery(query))
            return Self.json(
                200, ["total": found.total, "objectIDs": found.ids.isEmpty ? NSNull() as Any : found.ids as Any],
                for: request)
        default:
            guard route.count == 2, route[0] == "objects", let id = Int(route[1]) else {
                return Self.json(404, ["message": "Not Found"], for: request)
            }
            if let json = try store.objectJSON(id: id) {
                return TransportResponse(
                    status: 200, headers: ["Content-Type": "application/json"], body: json, url: request.url,
                    metrics: TransferMetrics(bytesReceived: json.count))
            }
            let message = try store.skipReason(id: id) ?? "ObjectID not found"
            return Self.json(404, ["message": message], for: request)
        }
    }

    /// The SDK's search as the query items it sent.
    static func searchQuery(_ items: [String: String]) -> SearchQuery {
        var query = SearchQuery(items["q"] ?? "")
        if items["title"] == "true" { query.fields.insert(.title) }
        if items["tags"] == "true" { query.fields.insert(.tags) }
        if items["artistOrCulture"] == "true" { query.fields.insert(.artistOrCulture) }
        query.isHighlight = items["isHighlight"] == "true"
        query.isOnView = items["isOnView"] == "true"
        query.hasImages = items["hasImages"] == "true"
        query.departmentID = items["departmentId"].flatMap { Int($0) }
        query.media = items["medium"].map { $0.split(separator: "|").map(String.init) } ?? []
        query.geoLocations = items["geoLocation"].map { $0.split(separator: "|").map(String.init) } ?? []
        query.dateBegin = items["dateBegin"].flatMap { Int($0) }
        query.dateEnd = items["dateEnd"].flatMap { Int($0) }
        return query
    }

    private static func queryItems(_ url: URL) -> [String: String] {
        let items = URLComponents(url: url, resolvingAgainstBaseURL: false)?.queryItems ?? []
        return Dictionary(items.map { ($0.name, $0.value ?? "") }, uniquingKeysWith: { $1 })
    }

    private static func json(_ status: Int, _ value: Any, for request: TransportRequest) -> TransportResponse {
        let body = (try? JSONSerialization.data(withJSONObject: value)) ?? Data("{}".utf8)
        return TransportResponse(
            status: status, headers: ["Content-Type": "application/json"], body: body, url: request.url,
            metrics: TransferMetrics(bytesReceived: body.count))
    }
}

extension MetClient {
    /// A client of the mirror in a folder's ``MirrorStore``: every call answers from it, offline.
    ///
    /// Bulk fetches are not rate limited (nothing is sent anywhere); the rest is the SDK as usual, so view models
    /// built on a `MetClient` — the museum feature's search store and object model — work from the mirror as
    /// they do online.
    public init(mirror store: MirrorStore) {
        let configuration = ClientConfiguration(
            baseURL: Self.mirrorBaseURL, transport: MirrorTransport(store: store))
        self.init(
            configuration: configuration,
            rateLimiter: RateLimiter(rate: RateLimiter.supportedRates.upperBound, burst: 1_000))
    }

    /// The server root a mirror client names; no request reaches it.
    static let mirrorBaseURL = URL(string: "https://mirror.invalid")!
}
