import Errand
import FeatureState
import Foundation
import MealDB

/// The sentences of the recipe screens, from the module's string tables in ``/Errand/Localization/language``.
public enum RecipeText {
    /// The sentence for `key` in `language`, with each `{name}` filled from `values`.
    static func text(_ key: String, _ values: [String: String] = [:], language: String = Localization.language)
        -> String
    {
        Localization.sentence(key, in: .module, language: language, values: values)
    }

    /// The label of the button that tries a failed load again.
    public static var tryAgain: String { text("screen.tryAgain") }
    /// The label of the button that picks another random meal.
    public static var anotherRecipe: String { text("screen.anotherRecipe") }
    /// The search field's prompt.
    public static var searchPrompt: String { text("screen.searchPrompt") }

    /// How many recipes a list shows, as `24 recipes` (`1 recipe`).
    public static func recipeCount(_ count: Int) -> String {
        text(count == 1 ? "screen.recipeCount.one" : "screen.recipeCount.other", ["count": "\(count)"])
    }

    /// What a filter selects, as `the category Dessert`.
    public static func name(of filter: FilteredMealsModel.Filter) -> String {
        switch filter {
        case .category(let name): return text("screen.filter.category", ["name": name])
        case .area(let name): return text("screen.filter.area", ["name": name])
        case .ingredient(let name): return text("screen.filter.ingredient", ["name": name])
        case .ingredients(let names): return text("screen.filter.ingredients", ["names": names.joined(separator: ", ")])
        }
    }
}

extension FilteredMealsModel {
    /// The screen's title: the category, area or ingredients, as `Dessert`.
    public var title: String {
        switch filter {
        case .category(let name), .area(let name), .ingredient(let name): return name
        case .ingredients(let names): return names.joined(separator: ", ")
        }
    }

    /// What the list shows in place of its rows: loading, empty, or failed; `nil` once meals are there.
    public var status: ScreenStatus? { Self.status(of: state, filter: filter) }

    /// The status of a list of `filter`'s meals in `state`.
    nonisolated public static func status(of state: LoadState<[MealSummary]>, filter: Filter) -> ScreenStatus? {
        let name = RecipeText.name(of: filter)
        return state.status(
            loading: RecipeText.text("screen.meals.loading", ["filter": name]),
            empty: RecipeText.text("screen.meals.empty", ["filter": name]))
    }

    /// The list's footer, as `24 recipes`; `nil` until meals are there.
    public var countText: String? {
        guard let meals = state.value, !meals.isEmpty else { return nil }
        return RecipeText.recipeCount(meals.count)
    }
}

extension MealSearchModel {
    /// What the results show in place of rows: an invitation to type, the search under way, nothing found, or the
    /// failure; `nil` once meals are there.
    public var status: ScreenStatus? { Self.status(of: state, query: searchedText ?? query) }

    /// The status of the results of searching `query` in `state`.
    nonisolated public static func status(of state: LoadState<[Meal]>, query: String) -> ScreenStatus? {
        state.status(
            hint: RecipeText.text("screen.search.hint"),
            loading: RecipeText.text("screen.search.loading", ["query": query]),
            empty: RecipeText.text("screen.search.empty", ["query": query]))
    }
}

extension MealDetailModel {
    /// What the recipe screen shows in place of the recipe: loading or failed; `nil` once it is there.
    public var status: ScreenStatus? { Self.status(of: state) }

    /// The status of a recipe screen in `state`.
    nonisolated public static func status(of state: LoadState<Meal>) -> ScreenStatus? {
        let loading = RecipeText.text("screen.meal.loading")
        return state.status(loading: loading, empty: loading) { _ in false }
    }
}

extension RandomMealModel {
    /// What the random meal's screen shows in place of the meal: loading or failed; `nil` once it is there.
    public var status: ScreenStatus? { MealDetailModel.status(of: state) }
}

extension CategoriesModel {
    /// What the categories list shows in place of its rows; `nil` once categories are there.
    public var status: ScreenStatus? {
        state.status(
            loading: RecipeText.text("screen.categories.loading"), empty: RecipeText.text("screen.categories.empty"))
    }
}

extension Meal {
    /// The line under a meal's name: category and area, as `Pasta · Italian`; `nil` when the service gave neither.
    public var categoryAndArea: String? {
        let parts = [category, area].compactMap { $0 }
        return parts.isEmpty ? nil : parts.joined(separator: " · ")
    }

    /// The source and video links and the picture's address, labelled, for the recipe's links section.
    public var links: [MealLink] {
        [
            (RecipeText.text("screen.link.source"), source), (RecipeText.text("screen.link.video"), youtube),
            (RecipeText.text("screen.link.picture"), thumbnail),
        ].compactMap { label, url in url.map { MealLink(label: label, url: $0) } }
    }
}

/// One labelled link of a recipe, as `Video` → its address.
public struct MealLink: Sendable, Hashable, Identifiable {
    /// What the link is, as `Video`.
    public var label: String
    /// Where it goes.
    public var url: URL
    /// The address, which is unique within one recipe's links.
    public var id: URL { url }
}

extension MealIngredient {
    /// The line of an ingredient list, measure first: `1 pound Penne`, or the name alone.
    public var line: String {
        guard let measure else { return name }
        return "\(measure) \(name)"
    }
}

/// A meal's picture, loaded through a data pipeline (its failures worded as the recipe screens word them).
public typealias MealPicture = PictureModel<RecipeFailure>
