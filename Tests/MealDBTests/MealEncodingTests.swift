import Foundation
import MealDB
import Testing

/// The clean JSON shape the models encode to (what the command-line app prints).
@Suite("MealDB encoding")
struct MealEncodingTests {
    let encoder: JSONEncoder = {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        return encoder
    }()

    @Test func fullMealWritesEveryKeyWithNulls() throws {
        let meal = Meal(
            id: "7", name: "Stew", category: "Beef", thumbnail: URL(string: "https://h.example/s.jpg"),
            tags: ["Winter"], ingredients: [MealIngredient(name: "Beef", measure: "1kg"), MealIngredient(name: "Salt")])
        let json = String(decoding: try encoder.encode(meal), as: UTF8.self)
        #expect(
            json == #"{"alternateName":null,"area":null,"category":"Beef","id":"7","ingredients":"#
                + #"[{"measure":"1kg","name":"Beef"},{"measure":null,"name":"Salt"}],"instructions":null,"name":"Stew","#
                + #""source":null,"tags":["Winter"],"thumbnail":"https://h.example/s.jpg","youtube":null}"#)
        #expect(try JSONDecoder().decode(Meal.self, from: encoder.encode(meal)) == meal)
    }

    @Test func summaryCategoryAreaAndIngredientShapes() throws {
        let summary = MealSummary(id: "1", name: "Pie", thumbnail: nil)
        #expect(
            String(decoding: try encoder.encode(summary), as: UTF8.self) == #"{"id":"1","name":"Pie","thumbnail":null}"#
        )
        let category = MealCategory(id: "2", name: "Side", thumbnail: URL(string: "https://h.example/side.png"))
        #expect(
            String(decoding: try encoder.encode([category]), as: UTF8.self)
                == #"[{"description":null,"id":"2","name":"Side","thumbnail":"https://h.example/side.png"}]"#)
        let areas: [Area] = ["Italian", "Thai"]
        #expect(String(decoding: try encoder.encode(areas), as: UTF8.self) == #"["Italian","Thai"]"#)
        #expect(try JSONDecoder().decode([Area].self, from: encoder.encode(areas)) == areas)
        let ingredient = Ingredient(id: "3", name: "Lime")
        #expect(
            String(decoding: try encoder.encode(ingredient), as: UTF8.self)
                == #"{"description":null,"id":"3","name":"Lime","type":null}"#)
        #expect(try JSONDecoder().decode(MealCategory.self, from: encoder.encode(category)) == category)
        #expect(try JSONDecoder().decode(Ingredient.self, from: encoder.encode(ingredient)) == ingredient)
    }
}
