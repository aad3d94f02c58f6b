import Errand
import MealDB
import RecipesFeature
import SwiftUI

/// The recipe app: categories, search as you type, and a random meal, each in its own tab.
@main
struct RecipesApp: App {
    /// One client and one picture pipeline for the whole app, so limits, retries and the picture cache are shared.
    let client = MealDBClient()
    let pictures: DataPipeline

    init() {
        pictures = DataPipeline.standard(named: "recipes-pictures", client: client.apiClient)
    }

    var body: some Scene {
        WindowGroup {
            TabView {
                Tab("Categories", systemImage: "square.grid.2x2") {
                    NavigationStack { CategoriesView(client: client, pictures: pictures) }
                }
                Tab("Search", systemImage: "magnifyingglass") {
                    NavigationStack { SearchView(client: client, pictures: pictures) }
                }
                Tab("Random", systemImage: "dice") {
                    NavigationStack { RandomMealView(client: client, pictures: pictures) }
                }
            }
        }
    }
}
