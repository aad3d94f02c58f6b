import Errand
import Foundation
import MealDB
import TestSupport
import Testing

/// Every real response in the shared fixtures decodes with the model its endpoint returns.
@Suite("MealDB fixtures", .enabled(if: Fixtures.available("themealdb")))
struct FixtureDecodingTests {
    /// What a fixture file answers, from its name (`lookup_i_52771.json` answers `lookup.php?i=52771`).
    enum Answer {
        case meals, summaries, categoryNames, noMatch

        init?(fileName: String) {
            switch fileName {
            case "lookup_meals_null.json": self = .noMatch
            case _ where fileName.hasPrefix("search_") || fileName.hasPrefix("lookup_"): self = .meals
            case _ where fileName.hasPrefix("filter_"): self = .summaries
            case "list_c_list.json": self = .categoryNames
            default: return nil
            }
        }
    }

    @Test("every fixture decodes with its endpoint's model", arguments: Fixtures.names("themealdb"))
    func decodes(fileName: String) async throws {
        let body = try Fixtures.data("themealdb", fileName)
        let raw = try #require(JSONSerialization.jsonObject(with: body) as? [String: Any])
        let rawCount = (raw["meals"] as? [Any])?.count ?? 0
        let mealDB = StubbedMealDB()
        switch try #require(Answer(fileName: fileName), "no model is known for \(fileName); add it to Answer") {
        case .meals:
            mealDB.respond(to: "search.php", body: body)
            let meals = try await mealDB.client.search(name: "x")
            #expect(meals.count == rawCount)
            for meal in meals {
                #expect(!meal.id.isEmpty && !meal.name.isEmpty)
                #expect(meal.thumbnail?.host == "www.themealdb.com")
                #expect(!meal.ingredients.isEmpty)
                #expect(meal.ingredients.allSatisfy { $0.name == $0.name.trimmed && !$0.name.isEmpty })
                #expect(meal.ingredients.allSatisfy { $0.measure.map { $0 == $0.trimmed && !$0.isEmpty } ?? true })
                #expect(meal.tags.allSatisfy { $0 == $0.trimmed && !$0.isEmpty })
                #expect(meal.instructions.map { !$0.contains("\r") && $0 == $0.trimmed } ?? true)
            }
        case .summaries:
            mealDB.respond(to: "filter.php", body: body)
            let summaries = try await mealDB.client.meals(inCategory: "x")
            #expect(summaries.count == rawCount)
            #expect(summaries.allSatisfy { !$0.id.isEmpty && !$0.name.isEmpty && $0.thumbnail != nil })
        case .categoryNames:
            mealDB.respond(to: "list.php", body: body)
            let names = try await mealDB.client.categoryNames()
            #expect(names.count == rawCount)
            #expect(names.contains("Vegetarian"))
        case .noMatch:
            mealDB.respond(to: "lookup.php", body: body)
            #expect(try await mealDB.client.meal(id: "52771") == nil)
            mealDB.respond(to: "search.php", body: body)
            #expect(try await mealDB.client.search(name: "nothing").isEmpty)
        }
    }

    @Test func lookupWithEmptyAndNullSlots() async throws {
        let meal = try #require(try await meal(from: "lookup_i_52771.json"))
        #expect(meal.name == "Spicy Arrabiata Penne")
        #expect(meal.alternateName == nil)
        #expect(meal.category == "Vegetarian" && meal.area == "Italian")
        #expect(meal.tags == ["Pasta", "Curry"])
        #expect(meal.source == nil)
        #expect(meal.youtube?.absoluteString == "https://www.youtube.com/watch?v=1IszT_guI08")
        #expect(meal.ingredients.count == 8)
        #expect(meal.ingredients.first == MealIngredient(name: "penne rigate", measure: "1 pound"))
        #expect(meal.ingredients.last == MealIngredient(name: "Parmigiano-Reggiano", measure: "spinkling"))
        #expect(meal.instructions?.split(separator: "\n").count == 3)
        #expect(
            meal.thumbnail(size: .small)?.absoluteString
                == "https://www.themealdb.com/images/media/meals/ustsqw1468250014.jpg/small")
    }

    @Test func lookupInTheServedForm() async throws {
        let meal = try #require(try await meal(from: "lookup_i_52893.json"))
        #expect(meal.name == "Apple & Blackberry Crumble")
        #expect(meal.ingredients.count == 9)
        #expect(meal.ingredients[7] == MealIngredient(name: "Cinnamon", measure: "¼ teaspoon"))
        #expect(meal.source?.host == "www.bbcgoodfood.com")
        #expect(meal.tags == ["Pudding"])
    }

    @Test func whitespaceMeasuresEmptyLinksAndTrailingCommas() async throws {
        let mealDB = StubbedMealDB()
        mealDB.respond(to: "search.php", body: try Fixtures.data("themealdb", "search_f_b.json"))
        let meals = try await mealDB.client.meals(startingWith: "b")

        let sloppyJoes = try #require(meals.first { $0.id == "52995" })
        #expect(sloppyJoes.ingredients.count == 13)
        #expect(sloppyJoes.ingredients[6] == MealIngredient(name: "Barbeque Sauce", measure: nil))
        #expect(sloppyJoes.source == nil && sloppyJoes.youtube == nil && sloppyJoes.tags.isEmpty)

        let potatoes = try #require(meals.first { $0.id == "52965" })
        #expect(potatoes.tags == ["Breakfast", "Brunch"])
        let burek = try #require(meals.first { $0.id == "53060" })
        #expect(burek.tags == ["Streetfood", "Onthego"])
        let padded = try #require(meals.first { $0.id == "52807" })
        #expect(padded.ingredients[1].measure == "½ cup")
        let trailing = try #require(meals.first { $0.id == "52979" })
        #expect(trailing.instructions?.hasSuffix("ustard.") == true)
    }

    private func meal(from fileName: String) async throws -> Meal? {
        let mealDB = StubbedMealDB()
        mealDB.respond(to: "lookup.php", body: try Fixtures.data("themealdb", fileName))
        return try await mealDB.client.meal(id: "1")
    }
}

extension String {
    /// The string without surrounding whitespace and newlines.
    var trimmed: String { trimmingCharacters(in: .whitespacesAndNewlines) }
}
