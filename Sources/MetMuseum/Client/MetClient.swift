import Errand
import Foundation

/// A client of The Met Collection API (https://metmuseum.github.io): search, objects, departments.
///
/// ```swift
/// let met = MetClient()
/// let found = try await met.search(SearchQuery("sunflowers", hasImages: true))
/// let first = try await met.object(id: found.ids[0])
/// ```
/// A `MetClient` is a value that can be shared between tasks. Every method throws ``MetError``: an object that does
/// not exist is ``MetError/notFound(objectID:message:)``, one the API does not serve (loans)
/// ``MetError/notAvailable(objectID:message:)``, the Met's bot protection ``MetError/blocked(_:)``.
public struct MetClient: Sendable {
    /// The Met's server root; the SDK adds `/public/collection/v1/`.
    public static let defaultBaseURL = URL(string: "https://collectionapi.metmuseum.org")!

    /// The Errand client every request goes through.
    public let client: APIClient
    /// The request budget: by default ``defaultBudget(clock:)``, never more than 80 starts in any second.
    ///
    /// A client made with ``init(baseURL:transport:headers:retry:rateLimiter:middleware:clock:)`` spends it on every
    /// request it sends, each retry included; one made with ``init(client:rateLimiter:)`` or
    /// ``init(configuration:rateLimiter:)`` spends it on the requests of its bulk fetches (its own middleware governs
    /// the rest). A bulk fetch that names a rate of its own is held
    /// to that rate as well.
    public let rateLimiter: RateLimiter
    /// Whether ``rateLimiter`` is in the client's middleware, so that bulk fetches need not wait for it again.
    let budgetsEveryRequest: Bool

    /// The largest answer a client made with ``init(baseURL:transport:headers:retry:rateLimiter:middleware:clock:)``
    /// accepts: 16 MB. The Met's largest answers, the lists of every object ID, are a few MB.
    public static let maxResponseBodySize = 16_000_000

    /// Creates a client of the Met at `baseURL` (a server root, such as a local replica's).
    ///
    /// - Parameters:
    ///   - baseURL: the server root; the SDK adds `/public/collection/v1/`.
    ///   - transport: the wire; Errand's default when `nil`.
    ///   - headers: extra headers for every request.
    ///   - retry: how 503s and transient wire failures are retried; `nil` for no retries. A 403 block page is never
    ///     retried.
    ///   - rateLimiter: the budget every request and every retry waits for; share one limiter between clients to
    ///     share one budget. Default ``defaultBudget(clock:)``.
    ///   - middleware: further middleware, after the retry and rate-limit middleware.
    ///   - clock: what the retries wait on and a bulk fetch's own rate is kept by (the client's
    ///     ``/Errand/ClientConfiguration/clock``); give `rateLimiter` the same clock. Default `ContinuousClock()`.
    public init(
        baseURL: URL = MetClient.defaultBaseURL, transport: (any Transport)? = nil, headers: HTTPHeaders = [:],
        retry: RetryPolicy? = .default, rateLimiter: RateLimiter = MetClient.defaultBudget(),
        middleware: [any Middleware] = [], clock: any Clock<Duration> = ContinuousClock()
    ) {
        let chain = Resilience.middleware(retry: retry, rateLimiter: rateLimiter) + middleware
        self.init(
            client: APIClient(
                configuration: ClientConfiguration(
                    baseURL: baseURL, headers: headers, transport: transport, middleware: chain,
                    maxResponseBodySize: Self.maxResponseBodySize, clock: clock)),
            rateLimiter: rateLimiter, budgetsEveryRequest: true)
    }

    /// Creates a client with the one ``/Errand/APIClient`` it builds from `configuration`, whose base URL is the Met's
    /// server root.
    ///
    /// A configuration that kept the default body limit gets ``maxResponseBodySize``. Its middleware is used as is,
    /// as with ``init(client:rateLimiter:)``.
    public init(configuration: ClientConfiguration, rateLimiter: RateLimiter = MetClient.defaultBudget()) {
        var configuration = configuration
        if configuration.maxResponseBodySize == ClientConfiguration.defaultMaxResponseBodySize {
            configuration.maxResponseBodySize = Self.maxResponseBodySize
        }
        self.init(client: APIClient(configuration: configuration), rateLimiter: rateLimiter)
    }

    /// Creates a client on a configured Errand client whose base URL is the Met's server root.
    ///
    /// The client is kept as it is: its own body limit applies (``maxResponseBodySize`` suits the Met), and its own
    /// middleware is used as is: add ``/Errand/RetryMiddleware`` there to retry 503s. Bulk fetches wait for
    /// `rateLimiter` before each request; single calls (``object(id:)``, ``search(_:)``) do not.
    public init(client: APIClient, rateLimiter: RateLimiter = MetClient.defaultBudget()) {
        self.init(client: client, rateLimiter: rateLimiter, budgetsEveryRequest: false)
    }

    private init(client: APIClient, rateLimiter: RateLimiter, budgetsEveryRequest: Bool) {
        self.client = client
        self.rateLimiter = rateLimiter
        self.budgetsEveryRequest = budgetsEveryRequest
    }

    // MARK: Endpoints

    /// The IDs of every object, or of those updated since a day or held by some departments (`objects`).
    ///
    /// - Parameters:
    ///   - updatedSince: only objects whose record changed on or after this day (UTC).
    ///   - departmentIDs: only objects of these departments.
    public func objectIDs(updatedSince: Date? = nil, departmentIDs: [Int] = []) async throws(MetError) -> ObjectIDList {
        try await send(MetPaths.objectIDs(updatedSince: updatedSince, departmentIDs: departmentIDs))
    }

    /// One object (`objects/{id}`).
    ///
    /// - Throws: ``MetError/notFound(objectID:message:)`` when there is no such object (or the ID is not positive),
    ///   ``MetError/notAvailable(objectID:message:)`` when the API does not serve it.
    public func object(id: Int) async throws(MetError) -> MetObject {
        guard id > 0 else { throw .notFound(objectID: id, message: "Object IDs are positive numbers.") }
        return try await send(MetPaths.object(id: id), objectID: id)
    }

    /// The museum's departments (`departments`).
    public func departments() async throws(MetError) -> [Department] {
        try await send(MetPaths.departments()).departments
    }

    /// Searches the collection (`search`); the IDs of matching objects, or none (never `nil`).
    ///
    /// - Throws: ``MetError/invalidQuery(_:)`` before any request when the query is not valid.
    public func search(_ query: SearchQuery) async throws(MetError) -> ObjectIDList {
        try await send(try MetPaths.search(query))
    }

    /// Sends a request and reads failures in the Met's terms.
    func send<Value: Decodable & Sendable>(_ request: Request<Value>, objectID: Int? = nil) async throws(MetError)
        -> Value
    {
        do {
            return try await client.send(request).value
        } catch {
            throw MetError(error, objectID: objectID)
        }
    }
}
