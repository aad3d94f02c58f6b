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

@Test func aTimeoutReachesTheCallerAsItsSentence() async throws {
    let stub = StubTransport()
    let timeout = TransportFailure(kind: .timedOut, underlying: "no answer within 30 seconds")
    stub.fail("search.php", with: .transport(timeout))
    let client = APIClient(
        configuration: ClientConfiguration(baseURL: URL(string: "https://example.com")!, transport: stub))

    let error = await #expect(throws: ErrandError.self) {
        try await MealDBClient(client: client).search(name: "pasta")
    }

    #expect(error?.isTransport(.timedOut) == true)
    #expect(error?.description == error?.userMessage)  // "\(error)" is the user's sentence
    #expect(error?.debugDescription.contains("no answer within 30 seconds") == true)  // the log's detail
}

@Test func aDynamicReplyAnswersWhatWasAsked() async throws {
    let stub = StubTransport()
    stub.register(
        path: "lookup.php",
        reply: .dynamic { request in
            let id = request.url.query?.split(separator: "=").last.map(String.init) ?? ""
            let json = #"{"meals":[{"idMeal":"\#(id)","strMeal":"Meal \#(id)"}]}"#
            return TransportResponse(status: 200, body: Data(json.utf8), url: request.url)
        })
    let client = APIClient(
        configuration: ClientConfiguration(baseURL: URL(string: "https://example.com")!, transport: stub))

    let meal = try await MealDBClient(client: client).meal(id: "52772")

    #expect(meal?.id == "52772")
    #expect(meal?.name == "Meal 52772")
}
