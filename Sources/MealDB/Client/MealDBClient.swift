import Errand
import Foundation

/// TheMealDB's API: search, look up and browse recipes, returned as clean Swift values.
///
/// ```swift
/// let mealDB = MealDBClient()  // retries 503s and lost connections, as MetClient() does
/// let pasta = try await mealDB.search(name: "pasta")
/// if let meal = try await mealDB.meal(id: "52771") { print(meal.ingredients) }
/// ```
///
/// The API key `"1"` (the public test key) uses `/api/json/v1/1/`; any other key uses `/api/json/v2/{key}/` and is
/// redacted from everything the client reports. Every method throws ``/Errand/ErrandError``:
/// - ``/Errand/ErrandError/invalidRequest(_:)`` for bad input, before any request (a first letter that is not one
///   letter);
/// - ``/Errand/ErrandError/transport(_:)`` when the network failed;
/// - ``/Errand/ErrandError/unacceptableStatus(_:)`` (or ``/Errand/ErrandError/blocked(_:)``) for a non-2xx answer,
///   after whatever retry middleware the client has;
/// - ``/Errand/ErrandError/decoding(_:)`` for an answer that is not TheMealDB's JSON (an HTML page, text, a cut-off
///   body).
///
/// Nothing found is not an error: an unknown id is `nil`, a search without matches an empty array.
///
/// The premium endpoints (``latestMeals()``, ``randomSelection()``, ``meals(withIngredients:)``) need a supporter's
/// key: with the test key they throw ``/Errand/ErrandError/invalidRequest(_:)`` before any request (check
/// ``hasPremiumKey``).
public struct MealDBClient: Sendable {
    /// The public test key, which needs no account.
    public static let testAPIKey = "1"
    /// The service's server root; the client adds the API path.
    public static let defaultBaseURL = URL(string: "https://www.themealdb.com")!

    /// The largest answer the client accepts unless its configuration sets a limit of its own: 4 MB. TheMealDB's
    /// largest answers (a search for every meal, the ingredient list) are a few hundred kilobytes.
    public static let maxResponseBodySize = 4_000_000

    /// The client requests go through; its base URL is the server root.
    public let apiClient: APIClient
    /// The key requests carry in their path.
    let apiKey: String
    /// The path below the server root every endpoint is under, worked out from the key once: a blank key fails
    /// every request with ``/Errand/ErrandError/invalidRequest(_:)``.
    private let apiPath: Result<[String], ErrandError>

    /// Creates a client for a server root (TheMealDB itself by default, or a replica) with the same resilience
    /// defaults as `MetClient()`: a 503, a 429, a timeout or a lost connection is sent again by `retry`, waiting as
    /// the policy and the server's `Retry-After` say.
    ///
    /// TheMealDB documents no rate limit, so none is kept unless `rateLimiter` names one.
    ///
    /// - Parameters:
    ///   - apiKey: `"1"` for the public test API, or a supporter's key for the v2 API.
    ///   - baseURL: The server root, without the `/api/json/…` path.
    ///   - transport: the wire; Errand's default when `nil`.
    ///   - retry: how transient failures are retried; `nil` for none. Default ``/Errand/RetryPolicy/default``.
    ///   - rateLimiter: a budget every request and every retry waits for; `nil` (the default) for none.
    ///   - clock: what the retries wait on (the client's ``/Errand/ClientConfiguration/clock``). Default
    ///     `ContinuousClock()`.
    public init(
        apiKey: String = MealDBClient.testAPIKey, baseURL: URL = MealDBClient.defaultBaseURL,
        transport: (any Transport)? = nil, retry: RetryPolicy? = .default, rateLimiter: RateLimiter? = nil,
        clock: any Clock<Duration> = ContinuousClock()
    ) {
        let configuration = ClientConfiguration(
            baseURL: baseURL, transport: transport,
            middleware: Resilience.middleware(retry: retry, rateLimiter: rateLimiter), clock: clock)
        self.init(apiKey: apiKey, configuration: configuration)
    }

    /// Creates a client for a server root with the one ``/Errand/APIClient`` it builds from `configuration`, whose
    /// middleware is used as it is: add ``/Errand/Resilience/middleware(retry:rateLimiter:maxConcurrent:coalesces:)``
    /// there to retry as ``init(apiKey:baseURL:transport:retry:rateLimiter:clock:)`` does.
    ///
    /// - Parameters:
    ///   - apiKey: `"1"` for the public test API, or a supporter's key for the v2 API.
    ///   - baseURL: The server root, without the `/api/json/…` path; `nil` keeps the configuration's.
    ///   - configuration: Transport, middleware, observers, timeouts…; prepared by
    ///     ``configuration(_:apiKey:)`` (the key redacted, the body limit fitted to the API).
    public init(apiKey: String = MealDBClient.testAPIKey, baseURL: URL? = nil, configuration: ClientConfiguration) {
        var configuration = configuration
        if let baseURL { configuration.baseURL = baseURL }
        self.init(apiKey: apiKey, client: APIClient(configuration: Self.configuration(configuration, apiKey: apiKey)))
    }

    /// Creates a client on an existing ``/Errand/APIClient`` whose base URL is the server root, and keeps it as it is.
    ///
    /// The client's redaction rules should hide a supporter's key and its body limit should suit the API:
    /// build it from ``configuration(_:apiKey:)``, or use ``init(apiKey:baseURL:configuration:)``.
    public init(apiKey: String = MealDBClient.testAPIKey, client: APIClient) {
        self.apiClient = client
        self.apiKey = apiKey
        self.apiPath = Self.path(forKey: apiKey)
    }

    /// A configuration prepared for TheMealDB: a supporter's key added to its redaction rules, and
    /// ``maxResponseBodySize`` instead of the default body limit (a limit of the caller's own is kept).
    public static func configuration(_ configuration: ClientConfiguration, apiKey: String) -> ClientConfiguration {
        var configuration = configuration
        if configuration.maxResponseBodySize == ClientConfiguration.defaultMaxResponseBodySize {
            configuration.maxResponseBodySize = maxResponseBodySize
        }
        // The test key "1" is public, and masking every "1" in reported URLs and messages would garble them.
        if apiKey != testAPIKey {
            configuration.redaction.pathSegments.insert(apiKey)
        }
        return configuration
    }

    /// The server root requests go to.
    public var baseURL: URL { apiClient.configuration.baseURL }

    // MARK: Meals

    /// Meals whose name contains `name`, in the service's order; empty when none match.
    ///
    /// An empty `name` lists some meals (the service decides how many).
    public func search(name: String) async throws(ErrandError) -> [Meal] {
        try await list("search.php", [QueryItem("s", name)])
    }

    /// Meals whose name starts with `letter`, which must be exactly one letter.
    ///
    /// - Throws: ``/Errand/ErrandError/invalidRequest(_:)`` before any request when `letter` is not a single letter.
    public func meals(startingWith letter: String) async throws(ErrandError) -> [Meal] {
        guard letter.count == 1, let character = letter.first, character.isLetter else {
            throw .invalidRequest("the first letter must be exactly one letter, not \"\(letter)\".")
        }
        return try await list("search.php", [QueryItem("f", letter)])
    }

    /// The meal with this id, or `nil` when the service has none.
    public func meal(id: String) async throws(ErrandError) -> Meal? {
        let meals: [Meal] = try await list("lookup.php", [QueryItem("i", id)])
        return meals.first
    }

    /// One meal picked at random by the service.
    ///
    /// - Throws: ``/Errand/ErrandError/decoding(_:)`` when the answer holds no meal.
    public func randomMeal() async throws(ErrandError) -> Meal {
        let response: Response<APIList<Meal>> = try await send("random.php", [])
        guard let meal = response.value.items.first else {
            throw .decoding(
                DecodingFailure(
                    targetType: "Meal", codingPath: "meals", reason: "random.php answered without a meal.",
                    body: response.data, contentType: response.headers["Content-Type"]))
        }
        return meal
    }

    // MARK: Browsing

    /// Every category, with picture and description.
    public func categories() async throws(ErrandError) -> [MealCategory] {
        try await list("categories.php", [])
    }

    /// The names of every category, as `["Beef", "Breakfast", …]`.
    public func categoryNames() async throws(ErrandError) -> [String] {
        let names: [CategoryName] = try await list("list.php", [QueryItem("c", "list")])
        return names.map(\.name)
    }

    /// Every area (cuisine).
    public func areas() async throws(ErrandError) -> [Area] {
        try await list("list.php", [QueryItem("a", "list")])
    }

    /// Every ingredient the service knows.
    public func ingredients() async throws(ErrandError) -> [Ingredient] {
        try await list("list.php", [QueryItem("i", "list")])
    }

    /// Summaries of the meals in a category, as `"Seafood"`; empty for an unknown category.
    public func meals(inCategory category: String) async throws(ErrandError) -> [MealSummary] {
        try await list("filter.php", [QueryItem("c", category)])
    }

    /// Summaries of the meals of an area, as `"Canadian"`; empty for an unknown area.
    public func meals(inArea area: String) async throws(ErrandError) -> [MealSummary] {
        try await list("filter.php", [QueryItem("a", area)])
    }

    /// Summaries of the meals using an ingredient; the service's examples write spaces as `_` (`"chicken_breast"`).
    public func meals(withIngredient ingredient: String) async throws(ErrandError) -> [MealSummary] {
        try await list("filter.php", [QueryItem("i", ingredient)])
    }

    // MARK: Sending

    func list<Item: APIRepresentable>(
        _ endpoint: String, _ query: [QueryItem]
    ) async throws(ErrandError) -> [Item] {
        let response: Response<APIList<Item>> = try await send(endpoint, query)
        return response.value.items
    }

    private func send<Item: APIRepresentable>(
        _ endpoint: String, _ query: [QueryItem]
    ) async throws(ErrandError) -> Response<APIList<Item>> {
        try await apiClient.send(Request<APIList<Item>>(segments: try apiPath.get() + [endpoint], query: query))
    }

    /// `api/json/v1/1` for the test key, `api/json/v2/{key}` otherwise.
    private static func path(forKey apiKey: String) -> Result<[String], ErrandError> {
        guard !apiKey.trimmingCharacters(in: .whitespacesAndNewlines).isEmpty else {
            return .failure(
                .invalidRequest(
                    "the TheMealDB API key is empty; use \"\(testAPIKey)\" for the public test API."))
        }
        return .success(apiKey == testAPIKey ? ["api", "json", "v1", apiKey] : ["api", "json", "v2", apiKey])
    }
}
