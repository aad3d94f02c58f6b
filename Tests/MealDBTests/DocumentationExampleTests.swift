import Errand
import ErrandTesting
import Foundation
import MealDB
import Testing

// The test of ErrandTesting's article "Testing your code with StubTransport", verbatim (scripts/examples checks that
// the article's block and this copy stay the same), so the article's example is compiled and run with the suite.

@Test func searchAsksForTheName() async throws {
    let stub = StubTransport()
    stub.respond(to: "search.php", json: #"{"meals":null}"#)
    let client = APIClient(
        configuration: ClientConfiguration(baseURL: URL(string: "https://example.com")!, transport: stub))

    let meals = try await MealDBClient(client: client).search(name: "pasta")

    #expect(meals.isEmpty)
    #expect(stub.requests.first?.url.query == "s=pasta")
}
