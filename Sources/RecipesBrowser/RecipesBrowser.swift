import Foundation
import MealDB
import RecipesFeature
import TerminalUI

/// `mealdb browse`: the recipe app's screens in a terminal, driven by the recipe app's view models — the categories
/// and areas, the search-as-you-type model (its debounce and latest-wins), the meals of a category or area, and a
/// meal's detail.
@MainActor
public final class RecipesBrowser: BrowserApp {
    /// The start page.
    public let rootPage = RecipePage.home
    /// The search field searches as the user types.
    public let searchesAsYouType = true

    private let client: MealDBClient
    private let categories: CategoriesModel
    private let areas: AreasModel
    private let searchModel: MealSearchModel
    private var filtered: [FilteredMealsModel.Filter: FilteredMealsModel] = [:]
    private var details: [String: MealDetailModel] = [:]
    private let pictures: PictureStore

    /// A browser on a client; pictures come through `pictureData` (the tool's data pipeline and cache).
    /// - Parameter debounce: how long typing must pause before a search is sent.
    public init(
        client: MealDBClient, debounce: Duration = .milliseconds(300),
        pictureData: @escaping @Sendable (URL) async throws -> Data, redraw: @escaping @Sendable () -> Void
    ) {
        self.client = client
        categories = CategoriesModel(client: client)
        areas = AreasModel(client: client)
        searchModel = MealSearchModel(client: client, debounce: debounce)
        pictures = PictureStore(fetch: pictureData, changed: { redraw() })
    }

    /// Loads the categories and areas.
    public func start() {
        load(categories)
        load(areas)
    }

    /// The frame for the page on top.
    public func frame(for navigation: Navigation<RecipePage>, colors: ColorDepth, tick: Int) -> Frame {
        let entry = navigation.top
        let showsPictures = colors != .none && PictureDecoder.isAvailable
        let lookup: RecipeScreens.Pictures = { [pictures] in pictures.slot(for: $0) }
        let body: Frame.Body
        switch entry.page {
        case .home:
            body = RecipeScreens.home(categories: categories.state, areas: areas.state, selection: entry.selection)
        case .search:
            body = RecipeScreens.search(
                state: searchModel.state, query: searchModel.searchedText ?? searchModel.query,
                selection: entry.selection, showsPictures: showsPictures, pictures: lookup)
        case .meals(let filter):
            body = RecipeScreens.meals(
                state: model(for: filter).state, filter: filter, selection: entry.selection,
                showsPictures: showsPictures, pictures: lookup)
        case .meal(let id):
            body = RecipeScreens.meal(state: detail(for: id).state, scroll: entry.scroll, pictures: lookup)
        }
        return Frame(
            title: "mealdb browse", source: "TheMealDB", searchLabel: "Search", query: navigation.query,
            searchFocused: navigation.focus == .search,
            heading: RecipeScreens.heading(
                entry.page, query: searchModel.searchedText ?? navigation.query,
                count: rows(of: entry.page)),
            body: body, showsHelp: navigation.showsHelp, tick: tick, colors: colors)
    }

    /// How many rows a page lists.
    public func rows(of page: RecipePage) -> Int? {
        switch page {
        case .home:
            guard let categories = categories.state.value, let areas = areas.state.value else { return 0 }
            return categories.count + areas.count
        case .search: return searchModel.state.value?.count ?? 0
        case .meals(let filter): return model(for: filter).state.value?.count ?? 0
        case .meal: return nil
        }
    }

    /// Opens a category or area, or a meal.
    public func open(_ page: RecipePage, row: Int) -> RecipePage? {
        switch page {
        case .home:
            guard let categories = categories.state.value, let areas = areas.state.value else { return nil }
            let filter: FilteredMealsModel.Filter =
                row < categories.count ? .category(categories[row].name) : .area(areas[row - categories.count].name)
            let model = model(for: filter)
            if model.state.isIdle { load(model) }
            return .meals(filter)
        case .search:
            guard let meals = searchModel.state.value, meals.indices.contains(row) else { return nil }
            return openMeal(meals[row].id)
        case .meals(let filter):
            guard let meals = model(for: filter).state.value, meals.indices.contains(row) else { return nil }
            return openMeal(meals[row].id)
        case .meal:
            return nil
        }
    }

    /// Sets the search model's query: it debounces and searches, the latest query winning.
    public func search(_ text: String) -> RecipePage? {
        searchModel.query = text
        return text.trimmingCharacters(in: .whitespaces).isEmpty ? nil : .search
    }

    /// Loads a page again.
    public func retry(_ page: RecipePage) {
        pictures.forgetFailures()
        switch page {
        case .home:
            if categories.state.errorMessage != nil { Task { await categories.retry() } }
            if areas.state.errorMessage != nil { Task { await areas.retry() } }
        case .search: Task { await searchModel.retry() }
        case .meals(let filter): let model = model(for: filter); Task { await model.retry() }
        case .meal(let id): let model = detail(for: id); Task { await model.retry() }
        }
    }

    private func openMeal(_ id: String) -> RecipePage {
        let model = detail(for: id)
        if model.state.isIdle || model.state.errorMessage != nil { load(model) }
        return .meal(id: id)
    }

    private func model(for filter: FilteredMealsModel.Filter) -> FilteredMealsModel {
        if let model = filtered[filter] { return model }
        let model = FilteredMealsModel(filter, client: client)
        filtered[filter] = model
        return model
    }

    private func detail(for id: String) -> MealDetailModel {
        if let model = details[id] { return model }
        let model = MealDetailModel(mealID: id, client: client)
        details[id] = model
        return model
    }

    private func load(_ model: some LoadingModel) {
        Task { await model.load() }
    }
}
