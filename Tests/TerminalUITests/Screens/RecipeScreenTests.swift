import MealDB
import RecipesBrowser
import RecipesFeature
import Testing

@testable import TerminalUI

/// Every state of the recipe app's models, rendered at 80×24 and 120×40 and compared with its snapshot.
@Suite("mealdb browse screens")
struct RecipeScreenTests {
    func frame(
        _ body: Frame.Body, page: RecipePage = .home, query: String = "", focused: Bool = false,
        count: Int? = nil, help: Bool = false, colors: ColorDepth = .trueColor
    ) -> Frame {
        Frame(
            title: "mealdb browse", source: "TheMealDB", searchLabel: "Search", query: query, searchFocused: focused,
            heading: RecipeScreens.heading(page, query: query, count: count), body: body, showsHelp: help, tick: 3,
            colors: colors)
    }

    @Test("start page: categories and areas loading, failed, loaded")
    func home() throws {
        try Snapshot.check(
            frame(RecipeScreens.home(categories: .loading, areas: .idle, selection: 0)), named: "recipes-home-loading")
        try Snapshot.check(
            frame(
                RecipeScreens.home(
                    categories: .failed("You seem to be offline. Check your connection and try again."),
                    areas: .loaded(Samples.areas), selection: 0)), named: "recipes-home-failed")
        try Snapshot.check(
            frame(
                RecipeScreens.home(
                    categories: .loaded(Samples.categories), areas: .loaded(Samples.areas), selection: 3),
                count: 5), named: "recipes-home-loaded")
        try Snapshot.check(
            frame(RecipeScreens.home(categories: .loaded([]), areas: .loaded([]), selection: 0)),
            named: "recipes-home-empty")
    }

    @Test("search: idle, loading, loaded with pictures arriving and arrived, empty, failed, field focused")
    func search() throws {
        func body(_ state: LoadState<[Meal]>, pictures: @escaping RecipeScreens.Pictures = Samples.arrived)
            -> Frame.Body
        {
            RecipeScreens.search(state: state, query: "pasta", selection: 1, showsPictures: true, pictures: pictures)
        }
        try Snapshot.check(frame(body(.idle), page: .search, focused: true), named: "recipes-search-idle")
        try Snapshot.check(
            frame(body(.loading), page: .search, query: "pasta", focused: true), named: "recipes-search-loading")
        try Snapshot.check(
            frame(body(.loaded(Samples.meals), pictures: Samples.loading), page: .search, query: "pasta", count: 3),
            named: "recipes-search-pictures-loading")
        try Snapshot.check(
            frame(body(.loaded(Samples.meals)), page: .search, query: "pasta", count: 3), named: "recipes-search-loaded"
        )
        try Snapshot.check(frame(body(.loaded([])), page: .search, query: "zzz"), named: "recipes-search-empty")
        try Snapshot.check(
            frame(
                body(.failed("The recipe service is having trouble right now. Please try again later.")), page: .search,
                query: "pasta"), named: "recipes-search-failed")
    }

    @Test("without colour the list has no thumbnails and a meal's picture is a labelled placeholder")
    func noColour() throws {
        let list = RecipeScreens.search(
            state: .loaded(Samples.meals), query: "pasta", selection: 0, showsPictures: false, pictures: Samples.arrived
        )
        try Snapshot.check(
            frame(list, page: .search, query: "pasta", count: 3, colors: .none), named: "recipes-search-no-colour")
        let meal = RecipeScreens.meal(state: .loaded(Samples.meal), scroll: 0, pictures: Samples.arrived)
        try Snapshot.check(frame(meal, page: .meal(id: "52771"), colors: .none), named: "recipes-meal-no-colour")
    }

    @Test("a category's meals, and a meal loading, failed, loaded, scrolled")
    func mealsAndMeal() throws {
        let summaries = Samples.meals.map { MealSummary(id: $0.id, name: $0.name, thumbnail: $0.thumbnail) }
        try Snapshot.check(
            frame(
                RecipeScreens.meals(
                    state: .loaded(summaries), filter: .category("Pasta"), selection: 0,
                    showsPictures: true, pictures: Samples.arrived), page: .meals(.category("Pasta")), count: 3),
            named: "recipes-meals-loaded")
        try Snapshot.check(
            frame(
                RecipeScreens.meals(
                    state: .loading, filter: .area("Italian"), selection: 0, showsPictures: true,
                    pictures: Samples.arrived), page: .meals(.area("Italian"))), named: "recipes-meals-loading")
        try Snapshot.check(
            frame(
                RecipeScreens.meals(
                    state: .failed("The recipe service took too long to answer. Please try again."),
                    filter: .category("Pasta"), selection: 0, showsPictures: true, pictures: Samples.arrived),
                page: .meals(.category("Pasta"))), named: "recipes-meals-failed")
        try Snapshot.check(
            frame(
                RecipeScreens.meals(
                    state: .loaded([]), filter: .area("Atlantis"), selection: 0, showsPictures: true,
                    pictures: Samples.arrived), page: .meals(.area("Atlantis"))), named: "recipes-meals-empty")
        try Snapshot.check(
            frame(RecipeScreens.meal(state: .loading, scroll: 0, pictures: Samples.arrived), page: .meal(id: "1")),
            named: "recipes-meal-loading")
        try Snapshot.check(
            frame(
                RecipeScreens.meal(
                    state: .failed("That recipe could not be found."), scroll: 0, pictures: Samples.arrived),
                page: .meal(id: "1")), named: "recipes-meal-failed")
        try Snapshot.check(
            frame(
                RecipeScreens.meal(state: .loaded(Samples.meal), scroll: 0, pictures: Samples.arrived),
                page: .meal(id: "1")),
            named: "recipes-meal-loaded")
        try Snapshot.check(
            frame(
                RecipeScreens.meal(state: .loaded(Samples.meal), scroll: 12, pictures: Samples.arrived),
                page: .meal(id: "1")),
            named: "recipes-meal-scrolled")
    }

    @Test("the help over a page")
    func help() throws {
        try Snapshot.check(
            frame(
                RecipeScreens.home(
                    categories: .loaded(Samples.categories), areas: .loaded(Samples.areas), selection: 0),
                help: true), named: "recipes-help")
    }

    @Test("a window below 40×10 asks to be enlarged")
    func tooSmall() {
        let grid = FrameRenderer.render(
            frame(RecipeScreens.home(categories: .loading, areas: .loading, selection: 0)),
            size: Size(columns: 30, rows: 8))
        #expect(grid.text.hasPrefix("Enlarge the window"))
    }
}

/// What moving the selection costs on the wire: the rows that changed, not the screen.
@Suite("Screen updates of a real frame")
struct FrameUpdateTests {
    @Test("moving down a list rewrites the two rows involved, a fraction of the full screen")
    func selectionMove() {
        func grid(selection: Int) -> Grid {
            let body = RecipeScreens.home(
                categories: .loaded(Samples.categories), areas: .loaded(Samples.areas), selection: selection)
            let frame = Frame(
                title: "mealdb browse", source: "TheMealDB", searchLabel: "Search", query: "", searchFocused: false,
                heading: "Categories and areas", body: body)
            return FrameRenderer.render(frame, size: Size(columns: 80, rows: 24))
        }
        let full = ScreenUpdate.encode(from: nil, to: grid(selection: 0), colors: .trueColor)
        let move = ScreenUpdate.encode(from: grid(selection: 0), to: grid(selection: 1), colors: .trueColor)
        #expect(move.contains("Dessert") && move.contains("Beef"))
        #expect(!move.contains("Pasta") && !move.contains("TheMealDB"), "untouched rows are not written")
        #expect(move.utf8.count * 10 < full.utf8.count, "\(move.utf8.count) bytes against \(full.utf8.count)")
        print("selection move: \(move.utf8.count) bytes; full screen: \(full.utf8.count) bytes")
    }
}
