import Foundation
import MealDB
import RecipesFeature
import TerminalUI

/// The pages of `mealdb browse` as pure functions of the recipe app's states: what each state looks like, whatever
/// the terminal.
public enum RecipeScreens {
    /// A picture lookup: where the picture of a URL stands.
    public typealias Pictures = (URL?) -> PictureSlot

    /// The start page: categories, then areas.
    public static func home(
        categories: LoadState<[MealCategory]>, areas: LoadState<[Area]>, selection: Int
    ) -> Frame.Body {
        switch (categories, areas) {
        case (.failed(let message), _), (_, .failed(let message)): return .status(.failed(message))
        case (.loaded(let categories), .loaded(let areas)):
            if categories.isEmpty, areas.isEmpty { return .status(.empty("TheMealDB lists no categories.")) }
            return .list(ListBody(rows: homeRows(categories, areas), selection: selection, showsPictures: false))
        default: return .status(.loading("Loading categories and areas…"))
        }
    }

    /// The start page's rows, categories first.
    static func homeRows(_ categories: [MealCategory], _ areas: [Area]) -> [ListBody.Row] {
        categories.map { ListBody.Row(title: $0.name, subtitle: "category") }
            + areas.map { ListBody.Row(title: $0.name, subtitle: "area") }
    }

    /// The search's results; `idle` invites typing.
    public static func search(
        state: LoadState<[Meal]>, query: String, selection: Int, showsPictures: Bool, pictures: Pictures
    ) -> Frame.Body {
        if let status = MealSearchModel.status(of: state, query: query) { return .status(Frame.Status(status)) }
        let rows = (state.value ?? []).map { meal in
            ListBody.Row(
                title: meal.name, subtitle: meal.categoryAndArea ?? "",
                picture: showsPictures ? pictures(meal.thumbnail(size: .small)) : nil)
        }
        return .list(ListBody(rows: rows, selection: selection, showsPictures: showsPictures))
    }

    /// The meals of a category or area.
    public static func meals(
        state: LoadState<[MealSummary]>, filter: FilteredMealsModel.Filter, selection: Int, showsPictures: Bool,
        pictures: Pictures
    ) -> Frame.Body {
        if let status = FilteredMealsModel.status(of: state, filter: filter) { return .status(Frame.Status(status)) }
        let rows = (state.value ?? []).map { meal in
            ListBody.Row(
                title: meal.name, subtitle: "#" + meal.id,
                picture: showsPictures ? pictures(meal.thumbnail(size: .small)) : nil)
        }
        return .list(ListBody(rows: rows, selection: selection, showsPictures: showsPictures))
    }

    /// One meal: picture, category and area, ingredients, instructions, links.
    public static func meal(state: LoadState<Meal>, scroll: Int, pictures: Pictures) -> Frame.Body {
        // A state without a meal always has a status (loading or failed).
        guard let meal = state.value else {
            return .status(Frame.Status(MealDetailModel.status(of: state) ?? .loading("")))
        }
        var facts: [TextBody.Fact] = []
        if let category = meal.category { facts.append(.init("Category", category)) }
        if let area = meal.area { facts.append(.init("Area", area)) }
        if !meal.tags.isEmpty { facts.append(.init("Tags", meal.tags.joined(separator: ", "))) }
        facts.append(.init("Ingredients", "\(meal.ingredients.count)"))
        var sections: [TextBody.Section] = []
        if !meal.ingredients.isEmpty {
            sections.append(.init("Ingredients", .table(meal.ingredients.map { [$0.measure ?? "", $0.name] })))
        }
        if let instructions = meal.instructions { sections.append(.init("Instructions", .paragraph(instructions))) }
        let links = meal.links.map { TextBody.Fact($0.label, $0.url.absoluteString) }
        if !links.isEmpty { sections.append(.init("Links", .links(links))) }
        return .text(
            TextBody(
                title: meal.name, subtitle: meal.alternateName ?? "",
                picture: pictures(meal.thumbnail(size: .medium)),
                facts: facts, sections: sections, scroll: scroll))
    }

    /// A heading for a page.
    public static func heading(_ page: RecipePage, query: String, count: Int?) -> String {
        let counted = count.map { " · \($0)" } ?? ""
        switch page {
        case .home: return "Categories and areas" + counted
        case .search: return "Meals matching “\(query)”" + counted
        case .meals(let filter): return "Meals of \(name(of: filter))" + counted
        case .meal: return "Recipe"
        }
    }

    static func name(of filter: FilteredMealsModel.Filter) -> String { RecipeText.name(of: filter) }
}
