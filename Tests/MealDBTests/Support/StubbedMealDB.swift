import Errand
import ErrandTesting
import Foundation
import MealDB

/// A MealDB client answering from a stub transport: decoding tests without a wire.
struct StubbedMealDB {
    let stub = StubTransport()
    let recorder = ExchangeRecorder()
    let client: MealDBClient

    init(apiKey: String = MealDBClient.testAPIKey) {
        let root = URL(string: "https://www.themealdb.com")!
        client = MealDBClient(
            apiKey: apiKey, baseURL: root,
            configuration: ClientConfiguration(baseURL: root, transport: stub, observers: [recorder]))
    }

    /// Answers every request to `endpoint` with these bytes as JSON.
    func respond(to endpoint: String, body: Data) {
        stub.respond(to: endpoint, headers: ["Content-Type": "application/json"], body: body)
    }

    /// Answers every request to `endpoint` with this JSON text.
    func respond(to endpoint: String, json: String) {
        stub.respond(to: endpoint, json: json)
    }
}

/// A meal in the service's raw shape, every slot given, for decoding tests.
func rawMeal(_ fields: [String: Any?]) -> [String: Any] {
    var meal: [String: Any] = ["idMeal": "1", "strMeal": "Test"]
    for slot in 1...20 {
        meal["strIngredient\(slot)"] = NSNull()
        meal["strMeasure\(slot)"] = NSNull()
    }
    for (key, value) in fields { meal[key] = value ?? NSNull() }
    return meal
}

/// `{"meals": [...]}` as bytes.
func mealsBody(_ meals: [[String: Any]]) throws -> Data {
    try JSONSerialization.data(withJSONObject: ["meals": meals])
}
