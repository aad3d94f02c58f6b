import Errand
import ErrandTesting
import Foundation
import MealDB
import Testing

/// Bytes that are not UTF-8 inside a field make the answer unreadable; they are not a field that is missing.
@Suite("MealDB: broken text is reported as such")
struct BrokenTextTests {
    @Test("invalid UTF-8 in a meal's name is a decoding failure that does not claim a missing key")
    func invalidUTF8() async throws {
        var body = Data(#"{"meals":[{"idMeal":"52771","strMeal":"Pie "#.utf8)
        body.append(contentsOf: [0xC3, 0x28])
        body.append(contentsOf: Array(#""}]}"#.utf8))
        let stub = StubTransport()
        stub.respond(to: "lookup.php", headers: ["Content-Type": "application/json"], body: body)
        let mealDB = MealDBClient(
            client: APIClient(
                configuration: ClientConfiguration(
                    baseURL: URL(string: "https://www.themealdb.com")!, transport: stub)))
        let error = await #expect(throws: ErrandError.self) { _ = try await mealDB.meal(id: "52771") }
        guard case .decoding(let failure)? = error else {
            Issue.record("expected a decoding failure, got \(String(describing: error))")
            return
        }
        #expect(!failure.reason.contains("missing"), "\(failure.reason)")
        #expect(error?.userMessage == "The server's response was not in the expected format.")
    }
}
