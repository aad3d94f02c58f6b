import CommandLine
import Errand
import Foundation
import MealDB
import RecipesFeature

/// One run of `mealdb`: the client built from the options, and the command carried out by the recipe app's view
/// model for it, whose settled state ``MealOutput`` renders.
@MainActor
struct MealDBSession {
    let context: CommandContext
    let invocation: Invocation
    let console: Console
    let client: MealDBClient
    let setup: ClientSetup
    let output: MealOutput

    init(context: CommandContext) throws(UsageError) {
        self.context = context
        invocation = context.invocation
        console = context.console
        setup = try ClientSetup(
            context: context, baseURLVariable: "MEALDB_BASE_URL", defaultBaseURL: MealDBClient.defaultBaseURL,
            cacheName: "mealdb")
        let flagKey = invocation.value("api-key")
        let apiKey =
            flagKey ?? context.environment["MEALDB_API_KEY"].flatMap { $0.isEmpty ? nil : $0 }
            ?? MealDBClient.testAPIKey
        guard !apiKey.trimmingCharacters(in: .whitespaces).isEmpty, !apiKey.contains("/") else {
            throw invocation.usageError(ToolText.sentence("mealdb.apiKeyExpected"))
        }
        // The key is a path segment of every URL; "." and ".." would step out of the API's path instead.
        guard apiKey != ".", apiKey != ".." else {
            throw invocation.usageError(
                "the API key cannot be '\(apiKey)': it would be read as a step in the URL's path, not as a key")
        }
        client = MealDBClient(apiKey: apiKey, configuration: setup.configuration(console: console))
        output = MealOutput(console: console, json: context.wantsJSON)
    }

    /// Carries out the command, and then waits for the recording (`--record`) to hold every exchange.
    func run() async throws {
        do {
            try await perform()
        } catch {
            await setup.finishRecording(console: console)
            throw error
        }
        await setup.finishRecording(console: console)
    }

    private func perform() async throws {
        switch invocation.command?.name {
        case "search":
            let text = try invocation.requiredArgument("TEXT")
            let meals = try await search(text)
            output.meals(meals, emptyMessage: ToolText.sentence("mealdb.noMealsFound", ["text": text]))
            try await writeGallery(
                meals.map(Self.card), title: ToolText.sentence("mealdb.galleryMatching", ["text": text]))
        case "letter":
            let letter = try invocation.requiredArgument("L")
            guard letter.count == 1, let character = letter.first, character.isASCII, character.isLetter else {
                throw invocation.usageError(
                    ToolText.sentence("mealdb.letterExpected", ["letter": UsageError.echo(letter)]))
            }
            let meals = try await MealListModel(.firstLetter(letter.lowercased()), client: client).loadedValue()
            output.meals(
                meals, emptyMessage: ToolText.sentence("mealdb.noMealsStartWith", ["letter": letter.lowercased()]))
        case "show":
            let id = try invocation.requiredArgument("ID")
            guard !id.isEmpty, id.allSatisfy(\.isASCII), id.allSatisfy(\.isNumber) else {
                throw invocation.usageError(ToolText.sentence("mealdb.idExpected", ["id": UsageError.echo(id)]))
            }
            output.meal(try await MealDetailModel(mealID: id, client: client).loadedValue())
        case "random" where invocation.flag("selection"):
            try requirePremiumKey("random --selection")
            let meals = try await MealListModel(.randomSelection, client: client).loadedValue()
            output.meals(meals, emptyMessage: "TheMealDB picked no meals.")
        case "random":
            output.meal(try await RandomMealModel(client: client).loadedValue())
        case "latest":
            try requirePremiumKey("latest")
            let meals = try await MealListModel(.latest, client: client).loadedValue()
            output.meals(meals, emptyMessage: "TheMealDB lists no new meals.")
            try await writeGallery(meals.map(Self.card), title: ToolText.sentence("mealdb.galleryNewest"))
        case "categories":
            output.categories(try await CategoriesModel(client: client).loadedValue())
        case "areas":
            output.areas(try await AreasModel(client: client).loadedValue())
        case "ingredients":
            output.ingredients(try await IngredientsModel(client: client).loadedValue())
        case "filter":
            try await filter()
        case "browse":
            try await browse()
        default:
            throw invocation.usageError(ToolText.sentence("usage.missingCommand"))
        }
    }

    /// The app's search, run once for `text`: its loaded meals, or the failure it settled on. Text that is blank
    /// searches nothing (the app shows no results for it), which is an empty result.
    private func search(_ text: String) async throws -> [Meal] {
        let model = MealSearchModel(client: client, debounce: nil)
        await model.search(text)
        if model.state.isIdle, text.trimmingCharacters(in: .whitespacesAndNewlines).isEmpty { return [] }
        return try model.state.loadedValue(failure: model.lastFailure?.classified)
    }

    private func filter() async throws {
        let ingredients = invocation.allValues("ingredient")
        let choices = [
            invocation.value("category").map { ("category", [$0]) }, invocation.value("area").map { ("area", [$0]) },
            ingredients.isEmpty ? nil : ("ingredient", ingredients),
        ].compactMap { $0 }
        guard choices.count == 1, let (kind, values) = choices.first else {
            let problem =
                choices.isEmpty
                ? "filter needs one of --category, --area or --ingredient"
                : "filter takes only one of --category, --area or --ingredient, not \(choices.map { "--" + $0.0 }.joined(separator: " and "))"
            throw invocation.usageError(problem)
        }
        if values.count > 1 { try requirePremiumKey("filter with more than one --ingredient") }
        let filter: FilteredMealsModel.Filter
        switch kind {
        case "category": filter = .category(values[0])
        case "area": filter = .area(values[0])
        default:
            // One ingredient is the free filter; several are the premium one, checked above.
            filter = values.count > 1 ? .ingredients(values) : .ingredient(values[0])
        }
        let meals = try await FilteredMealsModel(filter, client: client).loadedValue()
        let kinds = values.count > 1 ? "ingredients" : kind
        let described = values.map { "\"\($0)\"" }.joined(separator: ToolText.sentence("mealdb.and"))
        let suffix =
            switch kinds {
            case "category": "Category"
            case "area": "Area"
            case "ingredient": "Ingredient"
            default: "Ingredients"
            }
        output.summaries(meals, emptyMessage: ToolText.sentence("mealdb.noMealsFor" + suffix, ["values": described]))
        try await writeGallery(
            meals.map(Self.card),
            title: ToolText.sentence(
                "mealdb.galleryOf" + suffix,
                ["values": values.map { "“\($0)”" }.joined(separator: ToolText.sentence("mealdb.and"))]))
    }

    /// Refuses, before any request, a command that TheMealDB serves only with a supporter's key.
    private func requirePremiumKey(_ command: String) throws(UsageError) {
        guard client.hasPremiumKey else {
            throw invocation.usageError(
                "\(command) needs a premium TheMealDB API key (a supporter's key): pass --api-key KEY or set MEALDB_API_KEY"
            )
        }
    }

    private func writeGallery(_ cards: [GalleryItem], title: String) async throws {
        guard let folder = invocation.value("html") else { return }
        guard !folder.isEmpty else { throw invocation.usageError(ToolText.sentence("tool.htmlNeedsFolder")) }
        let gallery = Gallery(
            title: title, subtitle: ToolText.counted("mealdb.gallerySubtitle", count: cards.count),
            generator: "mealdb \(MealDBTool.version)", items: cards)
        try await GalleryWriter().write(gallery, toFolder: folder, setup: setup, console: console)
    }

    /// A gallery card for a full meal: category and area, tags.
    static func card(_ meal: Meal) -> GalleryItem {
        GalleryItem(
            title: meal.name, subtitle: [meal.category, meal.area].compactMap { $0 }.joined(separator: " · "),
            details: meal.tags.isEmpty ? [] : [meal.tags.joined(separator: ", ")], badge: meal.id,
            imageURL: meal.thumbnail(size: .medium), fallbackImageURL: meal.thumbnail,
            link: URL(string: "https://www.themealdb.com/meal/\(meal.id)"))
    }

    /// A gallery card for a meal summary.
    static func card(_ meal: MealSummary) -> GalleryItem {
        GalleryItem(
            title: meal.name, badge: meal.id, imageURL: meal.thumbnail(size: .medium), fallbackImageURL: meal.thumbnail,
            link: URL(string: "https://www.themealdb.com/meal/\(meal.id)"))
    }
}
