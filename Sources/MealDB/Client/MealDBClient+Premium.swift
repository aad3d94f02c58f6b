import Errand
import Foundation

extension MealDBClient {
    /// Whether the client has a supporter's key (any key but the public test key), which the premium endpoints need.
    public var hasPremiumKey: Bool { apiKey != Self.testAPIKey }

    /// The meals added to TheMealDB most recently, newest first (`latest.php`, premium).
    ///
    /// - Throws: ``/Errand/ErrandError/invalidRequest(_:)`` before any request when the client has the public test key.
    public func latestMeals() async throws(ErrandError) -> [Meal] {
        try requirePremiumKey(for: "the latest meals (latest.php)")
        return try await list("latest.php", [])
    }

    /// Ten meals picked at random by the service, in full (`randomselection.php`, premium).
    ///
    /// - Throws: ``/Errand/ErrandError/invalidRequest(_:)`` before any request when the client has the public test key.
    public func randomSelection() async throws(ErrandError) -> [Meal] {
        try requirePremiumKey(for: "a random selection of meals (randomselection.php)")
        return try await list("randomselection.php", [])
    }

    /// Summaries of the meals that use every one of these ingredients (`filter.php?i=a,b`, premium).
    ///
    /// Names are trimmed and their spaces written as `_`, then joined with commas in the order given, as the service
    /// expects: `["chicken breast", "garlic"]` asks for `chicken_breast,garlic`. For one ingredient with the test key,
    /// use ``meals(withIngredient:)``.
    ///
    /// - Throws: ``/Errand/ErrandError/invalidRequest(_:)`` before any request when the client has the public test key,
    ///   when there are no ingredients, or when a name is empty or contains a comma.
    public func meals(withIngredients ingredients: [String]) async throws(ErrandError) -> [MealSummary] {
        try requirePremiumKey(for: "filtering by several ingredients")
        return try await list("filter.php", [QueryItem("i", try Self.ingredientList(ingredients))])
    }

    /// The `i` value of a multi-ingredient filter: trimmed names, spaces as `_`, joined with commas.
    static func ingredientList(_ ingredients: [String]) throws(ErrandError) -> String {
        guard !ingredients.isEmpty else {
            throw .invalidRequest("filtering by ingredients needs at least one ingredient.")
        }
        var names: [String] = []
        for ingredient in ingredients {
            let name = ingredient.trimmingCharacters(in: .whitespacesAndNewlines)
            guard !name.isEmpty else { throw .invalidRequest("an ingredient's name must not be empty.") }
            // A comma would split one name into two in the service's list.
            guard !name.contains(",") else {
                throw .invalidRequest("an ingredient's name must not contain a comma, as \"\(name)\" does.")
            }
            names.append(name.split(whereSeparator: \.isWhitespace).joined(separator: "_"))
        }
        return names.joined(separator: ",")
    }

    private func requirePremiumKey(for what: String) throws(ErrandError) {
        guard hasPremiumKey else {
            throw .invalidRequest(
                "TheMealDB serves \(what) only with a supporter's API key (the v2 API), not the public test key \"\(Self.testAPIKey)\"."
            )
        }
    }
}
