import Errand
import FeatureViews
import MealDB
import RecipesFeature
import SwiftUI

/// A meal picked at random, and a button for another.
struct RandomMealView: View {
    let pictures: DataPipeline
    @State private var model: RandomMealModel

    init(client: MealDBClient, pictures: DataPipeline) {
        self.pictures = pictures
        _model = State(initialValue: RandomMealModel(client: client))
    }

    var body: some View {
        Group {
            if let status = model.status {
                StatusView(status, retryLabel: RecipeText.tryAgain) { await model.retry() }
            } else if let meal = model.state.value {
                MealContent(meal: meal, pictures: pictures)
                    // A new meal gets a new picture model.
                    .id(meal.id)
            }
        }
        .navigationTitle("Random")
        .toolbar {
            Button(RecipeText.anotherRecipe) { Task { await model.load() } }
                .disabled(model.state.isLoading)
        }
        .task { await model.loadIfIdle() }
        .refreshable { await model.refresh() }
    }
}
