import Errand
import ErrandTesting
import Foundation
import MealDB
import Testing

/// The SDK's answers are small, so its body limit is small: a hostile answer cannot make decoding take gigabytes.
@Suite("MealDB: a body limit that fits the API")
struct BodyLimitTests {
    @Test("a client on the default configuration accepts at most 4 MB; a limit of the caller's own is kept")
    func limit() async throws {
        let stub = StubTransport()
        let plain = MealDBClient(
            configuration: ClientConfiguration(
                baseURL: URL(string: "https://www.themealdb.com")!, transport: stub))
        #expect(plain.apiClient.configuration.maxResponseBodySize == MealDBClient.maxResponseBodySize)

        let own = MealDBClient(
            configuration: ClientConfiguration(
                baseURL: URL(string: "https://www.themealdb.com")!, transport: stub, maxResponseBodySize: 10_000_000))
        #expect(own.apiClient.configuration.maxResponseBodySize == 10_000_000)

        stub.respond(to: "search.php", json: #"{"meals":null}"#)
        _ = try await plain.search(name: "x")
        #expect(stub.requests.last?.maxResponseBodySize == MealDBClient.maxResponseBodySize, "the transport is told")
    }
}
