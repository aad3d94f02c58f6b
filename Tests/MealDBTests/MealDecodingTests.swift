import Errand
import Foundation
import MealDB
import Testing

/// The service's quirks, each in a body written for the test, turned into clean values.
@Suite("MealDB decoding")
struct MealDecodingTests {
    @Test func ingredientSlotsAreTrimmedAndGapsDroppedInOrder() async throws {
        let mealDB = StubbedMealDB()
        mealDB.respond(
            to: "lookup.php",
            body: try mealsBody([
                rawMeal([
                    "strIngredient1": " Flour ", "strMeasure1": "200g ",
                    "strIngredient2": "", "strMeasure2": "1 tsp",
                    "strIngredient3": " ", "strMeasure3": " ",
                    "strIngredient4": "Tomatoes", "strMeasure4": "1 tin ",
                    "strIngredient5": nil, "strMeasure5": "ignored",
                    "strIngredient6": "Salt", "strMeasure6": " ",
                    "strIngredient20": "Basil", "strMeasure20": nil,
                ])
            ]))
        let meal = try #require(try await mealDB.client.meal(id: "1"))
        #expect(
            meal.ingredients == [
                MealIngredient(name: "Flour", measure: "200g"), MealIngredient(name: "Tomatoes", measure: "1 tin"),
                MealIngredient(name: "Salt", measure: nil), MealIngredient(name: "Basil", measure: nil),
            ])
    }

    @Test func textFieldsAreCleaned() async throws {
        let mealDB = StubbedMealDB()
        mealDB.respond(
            to: "lookup.php",
            body: try mealsBody([
                rawMeal([
                    "idMeal": 52771, "strMeal": "  Soup\n", "strCategory": " ", "strArea": "",
                    "strInstructions": "\r\nStep one.\r\nStep two.\rStep three. \r\n", "strTags": " Soup, ,Winter,, ",
                    "strMealThumb": "https://www.themealdb.com/images/media/meals/x.jpg", "strYoutube": "",
                    "strSource": "see the packet", "strMealAlternate": " Broth ", "strDrinkAlternate": nil,
                    "strCreativeCommonsConfirmed": true, "dateModified": ["unexpected"],
                ])
            ]))
        let meal = try #require(try await mealDB.client.meal(id: "52771"))
        #expect(meal.id == "52771")
        #expect(meal.name == "Soup")
        #expect(meal.category == nil && meal.area == nil)
        #expect(meal.instructions == "Step one.\nStep two.\nStep three.")
        #expect(meal.tags == ["Soup", "Winter"])
        #expect(meal.youtube == nil && meal.source == nil)
        #expect(meal.alternateName == "Broth")
        #expect(meal.thumbnail?.lastPathComponent == "x.jpg")
    }

    @Test("the alternate name is read from either key", arguments: ["strMealAlternate", "strDrinkAlternate"])
    func alternateNameFromEitherKey(key: String) async throws {
        let mealDB = StubbedMealDB()
        mealDB.respond(to: "random.php", body: try mealsBody([rawMeal([key: "Other name"])]))
        #expect(try await mealDB.client.randomMeal().alternateName == "Other name")
    }

    @Test func nullMealsMeanNothingFound() async throws {
        let mealDB = StubbedMealDB()
        for endpoint in ["search.php", "lookup.php", "filter.php"] {
            mealDB.respond(to: endpoint, json: #"{"meals":null}"#)
        }
        #expect(try await mealDB.client.meal(id: "0") == nil)
        #expect(try await mealDB.client.search(name: "nothing").isEmpty)
        #expect(try await mealDB.client.meals(startingWith: "q").isEmpty)
        #expect(try await mealDB.client.meals(inCategory: "None").isEmpty)
        #expect(try await mealDB.client.meals(withIngredient: "None").isEmpty)
    }

    @Test func aRandomAnswerWithoutAMealIsAnInvalidResponse() async throws {
        let mealDB = StubbedMealDB()
        mealDB.respond(to: "random.php", json: #"{"meals":null}"#)
        let error = try await #require(throws: ErrandError.self) { try await mealDB.client.randomMeal() }
        guard case .decoding(let failure) = error else { Issue.record("expected .decoding, got \(error)"); return }
        #expect(failure.reason.contains("random.php"))
    }

    @Test(
        "bodies that are not TheMealDB's JSON are decoding errors",
        arguments: [
            ("<!DOCTYPE html><html><body>Just a moment</body></html>", "text/html", true),
            ("Service unavailable", "text/plain", false),
            (#"{"meals":[{"idMeal":"1","strMe"#, "application/json", false),
            (#"{"message":"not found"}"#, "application/json", false),
            (#"{"meals":[{"strMeal":"No id"}]}"#, "application/json", false),
            ("", "application/json", false),
        ])
    func invalidBodies(body: String, contentType: String, isHTML: Bool) async throws {
        let mealDB = StubbedMealDB()
        mealDB.stub.respond(to: "search.php", headers: ["Content-Type": contentType], body: Data(body.utf8))
        let error = try await #require(throws: ErrandError.self) { try await mealDB.client.search(name: "x") }
        guard case .decoding(let failure) = error else { Issue.record("expected .decoding, got \(error)"); return }
        #expect(failure.isHTML == isHTML)
    }

    @Test func categoriesAreasAndIngredients() async throws {
        let mealDB = StubbedMealDB()
        mealDB.respond(
            to: "categories.php",
            json: #"""
                {"categories":[{"idCategory":"1","strCategory":"Beef","strCategoryThumb":"https:\/\/www.themealdb.com\/images\/category\/beef.png",
                "strCategoryDescription":"Beef is the meat of cattle.\r\n\r\nSlow cooking suits it. "}]}
                """#)
        let category = try #require(try await mealDB.client.categories().first)
        #expect(
            category
                == MealCategory(
                    id: "1", name: "Beef", thumbnail: URL(string: "https://www.themealdb.com/images/category/beef.png"),
                    description: "Beef is the meat of cattle.\n\nSlow cooking suits it."))

        mealDB.stub.clearRequests()
        mealDB.respond(to: "list.php", json: #"{"meals":[{"strArea":"American"},{"strArea":" British "}]}"#)
        #expect(try await mealDB.client.areas() == ["American", "British"])
        mealDB.respond(
            to: "list.php",
            json: #"""
                {"meals":[{"idIngredient":"1","strIngredient":"Chicken","strDescription":"A bird.\r\n","strType":null},
                {"idIngredient":2,"strIngredient":"Salmon","strDescription":"","strType":"Fish","strThumb":null}]}
                """#)
        #expect(
            try await mealDB.client.ingredients() == [
                Ingredient(id: "1", name: "Chicken", description: "A bird.", type: nil),
                Ingredient(id: "2", name: "Salmon", description: nil, type: "Fish"),
            ])
        #expect(mealDB.stub.requests.map { $0.url.query } == ["a=list", "i=list"])
    }
}
