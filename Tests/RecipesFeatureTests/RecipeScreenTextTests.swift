import Errand
import ErrandTesting
import Foundation
import MealDB
import TestSupport
import Testing

@testable import RecipesFeature

/// What the recipe screens show in each state: the statuses, counts, lines and links that the terminal app and the
/// SwiftUI app both read from the models.
@MainActor
@Suite("Recipe screens: statuses, counts and lines from the models")
struct RecipeScreenTextTests {
    let summaries = [MealSummary(id: "1", name: "Tart"), MealSummary(id: "2", name: "Pie")]

    @Test("a category's list: loading while idle or loading, the failure, empty, then nothing over the rows")
    func categoryListStatus() {
        let filter = FilteredMealsModel.Filter.category("Dessert")
        #expect(
            FilteredMealsModel(filter, state: .idle).status == .loading("Loading the meals of the category Dessert…"))
        #expect(
            FilteredMealsModel(filter, state: .loading).status == .loading("Loading the meals of the category Dessert…")
        )
        #expect(FilteredMealsModel(filter, state: .failed("Offline.")).status == .failed("Offline."))
        #expect(FilteredMealsModel(filter, state: .failed("Offline.")).status?.offersRetry == true)
        #expect(FilteredMealsModel(filter, state: .loaded([])).status == .empty("No meals of the category Dessert."))
        #expect(FilteredMealsModel(filter, state: .loaded(summaries)).status == nil)
        #expect(
            FilteredMealsModel(.area("Italian"), state: .loaded([])).status?.text == "No meals of the area Italian.")
        #expect(FilteredMealsModel(.ingredients(["a", "b"]), state: .loaded([])).title == "a, b")
        #expect(FilteredMealsModel(filter, state: .idle).title == "Dessert")
    }

    @Test("the footer counts recipes, singular and plural, and only once they are there")
    func countText() {
        let filter = FilteredMealsModel.Filter.category("Dessert")
        #expect(FilteredMealsModel(filter, state: .loaded(summaries)).countText == "2 recipes")
        #expect(FilteredMealsModel(filter, state: .loaded([summaries[0]])).countText == "1 recipe")
        #expect(FilteredMealsModel(filter, state: .loaded([])).countText == nil)
        #expect(FilteredMealsModel(filter, state: .loading).countText == nil)
        #expect(RecipeText.text("screen.recipeCount.other", ["count": "24"], language: "de") == "24 Rezepte")
    }

    @Test("search: a hint before typing, the query while searching and when nothing matched")
    func searchStatus() {
        #expect(MealSearchModel(state: .idle).status == .hint("Type the name of a meal, as pasta or curry."))
        #expect(MealSearchModel(query: "pasta", state: .loading).status == .loading("Searching for “pasta”…"))
        #expect(MealSearchModel(query: "xyzzy", state: .loaded([])).status == .empty("No meals found for “xyzzy”."))
        #expect(MealSearchModel(query: "pasta", state: .loaded([Meal(id: "1", name: "Penne")])).status == nil)
    }

    @Test("a recipe's and a random meal's screen: loading, failed, then the meal")
    func detailStatus() {
        let meal = Meal(id: "52771", name: "Spicy Arrabiata Penne", category: "Vegetarian", area: "Italian")
        #expect(MealDetailModel(mealID: "1", state: .loading).status == .loading("Loading the recipe…"))
        #expect(MealDetailModel(mealID: "1", state: .failed("Not found.")).status == .failed("Not found."))
        #expect(MealDetailModel(mealID: "1", state: .loaded(meal)).status == nil)
        #expect(RandomMealModel(state: .idle).status == .loading("Loading the recipe…"))
        #expect(RandomMealModel(state: .loaded(meal)).status == nil)
        #expect(CategoriesModel(state: .loaded([])).status == .empty("TheMealDB lists no categories."))
    }

    @Test("a meal's lines: category and area, ingredients measure first, links in order")
    func mealLines() throws {
        let url = try #require(URL(string: "https://meals.example/a.jpg"))
        let video = try #require(URL(string: "https://video.example/v"))
        let meal = Meal(
            id: "1", name: "Penne", category: "Pasta", thumbnail: url, youtube: video,
            ingredients: [MealIngredient(name: "Penne", measure: "1 pound"), MealIngredient(name: "Salt")])
        #expect(meal.categoryAndArea == "Pasta")
        #expect(Meal(id: "2", name: "X", category: "Pasta", area: "Italian").categoryAndArea == "Pasta · Italian")
        #expect(Meal(id: "3", name: "Y").categoryAndArea == nil)
        #expect(meal.ingredients.map(\.line) == ["1 pound Penne", "Salt"])
        #expect(meal.links.map(\.label) == ["Video", "Picture"])
        #expect(meal.links.map(\.url) == [video, url])
    }

    @Test("every screen sentence has a German entry with the English entry's placeholders")
    func germanTables() throws {
        let english = try tableKeys(language: "en").filter { $0.hasPrefix("screen.") }
        #expect(english.count > 15)
        for key in english {
            let en = RecipeText.text(key, language: "en")
            let de = RecipeText.text(key, language: "de")
            #expect(de != key, "no German entry for \(key)")
            #expect(placeholders(en) == placeholders(de), "\(key): \(en) / \(de)")
        }
    }

    @Test("a picture: idle without an address, its bytes through the pipeline, a failure without interrupting")
    func picture() async throws {
        let stub = StubTransport()
        stub.respond(to: "a.png", status: 200, body: Data([1, 2, 3]))
        stub.respond(to: "gone.png", status: 404, body: Data())
        let pipeline = DataPipeline(client: stubClient(stub).apiClient)
        let missing = MealPicture(url: nil, pipeline: pipeline)
        await missing.loadIfIdle()
        #expect(missing.state == .idle)
        #expect(stub.requests.isEmpty)

        let picture = MealPicture(url: URL(string: "https://meals.example/a.png"), pipeline: pipeline)
        #expect(picture.state == .idle)
        await picture.loadIfIdle()
        #expect(picture.state == .loaded(Data([1, 2, 3])))

        let gone = MealPicture(url: URL(string: "https://meals.example/gone.png"), pipeline: pipeline)
        await gone.loadIfIdle()
        #expect(gone.state.errorMessage != nil)
        #expect(gone.state.value == nil)
    }

    private func tableKeys(language: String) throws -> [String] {
        let table = Fixtures.packageRoot.appendingPathComponent(
            "Sources/RecipesFeature/Resources/\(language).lproj/Localizable.strings")
        return try String(contentsOf: table, encoding: .utf8).split(separator: "\n").compactMap { line in
            guard line.hasPrefix("\""), let end = line.dropFirst().firstIndex(of: "\"") else { return nil }
            return String(line[line.index(after: line.startIndex)..<end])
        }
    }

    private func placeholders(_ text: String) -> Set<String> {
        Set(text.split(separator: "{").dropFirst().compactMap { $0.split(separator: "}").first.map(String.init) })
    }
}
