import Errand
import Foundation

/// Errand's article "Checklist for app developers", its blocks in order, then one search through the configured
/// client against the replica's copy of TheMealDB (the cache file goes to the scratch folder scripts/examples gives
/// as XDG_CACHE_HOME), with the language set back afterwards for the examples after it.
@Sendable func articleChecklist(replica: URL) async throws {
    var configuration = ClientConfiguration(baseURL: URL(string: "https://www.themealdb.com/api/json/v1/1")!)

    configuration.timeout = .seconds(20)

    configuration.middleware.append(HTTPCache.standard(named: "recipes"))

    configuration.middleware += Resilience.middleware(retry: .default, maxConcurrent: 8)

    configuration.maxResponseBodySize = 5_000_000

    configuration.redaction = Redaction(headerNames: ["X-Api-Key"], queryNames: ["api_key"])

    configuration.observers.append(LoggingObserver(level: .warning, sink: StandardErrorLogSink()))

    let language = Localization.language
    defer { Localization.language = language }
    Localization.language = "de"

    let client = APIClient(configuration: configuration)
    let search = Task { try await client.send(Request<Data>(path: "search.php", query: [QueryItem("s", "pasta")])) }
    search.cancel()
    _ = await search.result

    configuration.baseURL = replica.appendingPathComponent("api/json/v1/1")
    let replicaClient = APIClient(configuration: configuration)
    let answer = try await replicaClient.send(Request<Data>(path: "search.php", query: [QueryItem("s", "pasta")]))
    print("search for pasta: \(answer.status), \(answer.value.count) bytes, cache \(answer.cacheStatus)")
}
