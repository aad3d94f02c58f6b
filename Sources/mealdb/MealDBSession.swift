import CommandLine
import Errand
import Foundation
import MealDB

/// One run of `mealdb`: the client built from the options, and the command carried out.
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
        let apiKey = flagKey ?? context.environment["MEALDB_API_KEY"].flatMap { $0.isEmpty ? nil : $0 }
            ?? MealDBClient.testAPIKey
        guard !apiKey.trimmingCharacters(in: .whitespaces).isEmpty, !apiKey.contains("/") else {
            throw invocation.usageError("the API key must be a non-empty word without '/'")
        }
        client = MealDBClient(apiKey: apiKey, client: APIClient(configuration: setup.configuration(console: console)))
        output = MealOutput(console: console, json: context.wantsJSON)
    }

    func run() async throws {
        switch invocation.command?.name {
        case "search":
            let text = try invocation.requiredArgument("TEXT")
            let meals = try await client.search(name: text)
            output.meals(meals, emptyMessage: "No meals found for \"\(text)\".")
            try await writeGallery(meals.map(Self.card), title: "Meals matching “\(text)”")
        case "letter":
            let letter = try invocation.requiredArgument("L")
            guard letter.count == 1, let character = letter.first, character.isASCII, character.isLetter else {
                throw invocation.usageError("L must be exactly one letter from a to z, not '\(letter)'")
            }
            let meals = try await client.meals(startingWith: letter.lowercased())
            output.meals(meals, emptyMessage: "No meals start with \"\(letter.lowercased())\".")
        case "show":
            let id = try invocation.requiredArgument("ID")
            guard !id.isEmpty, id.allSatisfy(\.isASCII), id.allSatisfy(\.isNumber) else {
                throw invocation.usageError("ID must be a meal's number, as 52771, not '\(id)'")
            }
            guard let meal = try await client.meal(id: id) else {
                throw Failure(.notFound, "TheMealDB has no meal with id \(id).")
            }
            output.meal(meal)
        case "random" where invocation.flag("selection"):
            try requirePremiumKey("random --selection")
            output.meals(try await client.randomSelection(), emptyMessage: "TheMealDB picked no meals.")
        case "random":
            output.meal(try await client.randomMeal())
        case "latest":
            try requirePremiumKey("latest")
            let meals = try await client.latestMeals()
            output.meals(meals, emptyMessage: "TheMealDB lists no new meals.")
            try await writeGallery(meals.map(Self.card), title: "The newest meals")
        case "categories":
            output.categories(try await client.categories())
        case "areas":
            output.areas(try await client.areas())
        case "ingredients":
            output.ingredients(try await client.ingredients())
        case "filter":
            try await filter()
        default:
            throw invocation.usageError("missing command")
        }
    }

    private func filter() async throws {
        let ingredients = invocation.allValues("ingredient")
        let choices = [
            invocation.value("category").map { ("category", [$0]) }, invocation.value("area").map { ("area", [$0]) },
            ingredients.isEmpty ? nil : ("ingredient", ingredients),
        ].compactMap { $0 }
        guard choices.count == 1, let (kind, values) = choices.first else {
            let problem = choices.isEmpty
                ? "filter needs one of --category, --area or --ingredient"
                : "filter takes only one of --category, --area or --ingredient, not \(choices.map { "--" + $0.0 }.joined(separator: " and "))"
            throw invocation.usageError(problem)
        }
        if values.count > 1 { try requirePremiumKey("filter with more than one --ingredient") }
        let meals: [MealSummary]
        switch kind {
        case "category": meals = try await client.meals(inCategory: values[0])
        case "area": meals = try await client.meals(inArea: values[0])
        default:
            // One ingredient is the free filter; several are the premium one, checked above.
            meals = values.count > 1
                ? try await client.meals(withIngredients: values) : try await client.meals(withIngredient: values[0])
        }
        let described = values.map { "\"\($0)\"" }.joined(separator: " and ")
        let kinds = values.count > 1 ? "ingredients" : kind
        output.summaries(meals, emptyMessage: "No meals found for \(kinds) \(described).")
        try await writeGallery(meals.map(Self.card), title: "Meals of the \(kinds) \(values.map { "“\($0)”" }.joined(separator: " and "))")
    }

    /// Refuses, before any request, a command that TheMealDB serves only with a supporter's key.
    private func requirePremiumKey(_ command: String) throws(UsageError) {
        guard client.hasPremiumKey else {
            throw invocation.usageError(
                "\(command) needs a premium TheMealDB API key (a supporter's key): pass --api-key KEY or set MEALDB_API_KEY")
        }
    }

    private func writeGallery(_ cards: [GalleryItem], title: String) async throws {
        guard let folder = invocation.value("html") else { return }
        guard !folder.isEmpty else { throw invocation.usageError("--html needs a folder name") }
        let gallery = Gallery(
            title: title, subtitle: "\(cards.count) meal\(cards.count == 1 ? "" : "s") from TheMealDB",
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
