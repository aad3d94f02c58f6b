import Errand
import FeatureViews
import MealDB
import RecipesFeature
import SwiftUI

/// Search as you type: the model waits for a pause in typing, and a newer query cancels the older search.
struct SearchView: View {
    let client: MealDBClient
    let pictures: DataPipeline
    @State private var model: MealSearchModel

    init(client: MealDBClient, pictures: DataPipeline) {
        self.client = client
        self.pictures = pictures
        _model = State(initialValue: MealSearchModel(client: client))
    }

    var body: some View {
        Group {
            if let status = model.status {
                StatusView(status, emptySymbol: "fork.knife", retryLabel: RecipeText.tryAgain) { await model.retry() }
            } else {
                List(model.state.value ?? []) { meal in
                    NavigationLink(value: MealSummary(meal)) {
                        PictureRow(
                            title: meal.name, subtitle: meal.categoryAndArea,
                            picture: MealPicture(url: meal.thumbnail(size: .small), pipeline: pictures))
                    }
                }
                .listStyle(.plain)
            }
        }
        .navigationTitle("Search")
        .searchable(text: $model.query, prompt: RecipeText.searchPrompt)
        .navigationDestination(for: MealSummary.self) { meal in
            MealDetailView(mealID: meal.id, client: client, pictures: pictures)
        }
    }
}
