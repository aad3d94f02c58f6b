import Errand
import FeatureViews
import MealDB
import RecipesFeature
import SwiftUI

/// The meals of a category (or area, or ingredient), with the number of recipes as the list's footer.
struct MealsView: View {
    let client: MealDBClient
    let pictures: DataPipeline
    @State private var model: FilteredMealsModel

    init(filter: FilteredMealsModel.Filter, client: MealDBClient, pictures: DataPipeline) {
        self.init(model: FilteredMealsModel(filter, client: client), client: client, pictures: pictures)
    }

    /// A list on a given model: a fixed state, for previews.
    init(model: FilteredMealsModel, client: MealDBClient, pictures: DataPipeline) {
        self.client = client
        self.pictures = pictures
        _model = State(initialValue: model)
    }

    var body: some View {
        Group {
            if let status = model.status {
                StatusView(status, emptySymbol: "fork.knife", retryLabel: RecipeText.tryAgain) { await model.retry() }
            } else {
                List {
                    Section {
                        ForEach(model.state.value ?? []) { meal in
                            NavigationLink(value: meal) {
                                PictureRow(
                                    title: meal.name, subtitle: nil,
                                    picture: MealPicture(url: meal.thumbnail(size: .small), pipeline: pictures))
                            }
                        }
                    } footer: {
                        if let count = model.countText { Text(count) }
                    }
                }
                .listStyle(.plain)
            }
        }
        .navigationTitle(model.title)
        .navigationDestination(for: MealSummary.self) { meal in
            MealDetailView(mealID: meal.id, client: client, pictures: pictures)
        }
        // Loads when the screen first appears; coming back to it keeps what it has.
        .task { await model.loadIfIdle() }
        .refreshable { await model.refresh() }
    }
}

// Previews need no network: each shows the list fixed in one state.
#Preview("Loaded") { MealsPreview(state: .loaded([MealSummary(id: "1", name: "Apple Frangipan Tart"), MealSummary(id: "2", name: "Bakewell tart")])) }
#Preview("Loading") { MealsPreview(state: .loading) }
#Preview("Empty") { MealsPreview(state: .loaded([])) }
#Preview("Failed") { MealsPreview(state: .failed("You seem to be offline. Check your connection and try again.")) }

private struct MealsPreview: View {
    let state: LoadState<[MealSummary]>
    let client = MealDBClient()

    var body: some View {
        NavigationStack {
            MealsView(
                model: FilteredMealsModel(.category("Dessert"), state: state), client: client,
                pictures: DataPipeline(client: client.apiClient))
        }
    }
}
