import Errand
import FeatureViews
import MealDB
import RecipesFeature
import SwiftUI

/// One recipe: its picture, category and area, ingredients with their measures, instructions and links.
struct MealDetailView: View {
    let pictures: DataPipeline
    @State private var model: MealDetailModel

    init(mealID: String, client: MealDBClient, pictures: DataPipeline) {
        self.pictures = pictures
        _model = State(initialValue: MealDetailModel(mealID: mealID, client: client))
    }

    var body: some View {
        Group {
            if let status = model.status {
                StatusView(status, retryLabel: RecipeText.tryAgain) { await model.retry() }
            } else if let meal = model.state.value {
                MealContent(meal: meal, pictures: pictures)
            }
        }
        .navigationBarTitleDisplayMode(.inline)
        .task { await model.loadIfIdle() }
    }
}

/// A meal's content, shared by the recipe screen and the random meal.
struct MealContent: View {
    let meal: Meal
    let pictures: DataPipeline

    var body: some View {
        List {
            Section {
                PictureView(MealPicture(url: meal.thumbnail(size: .medium), pipeline: pictures))
                    .frame(height: 240)
                    .clipShape(RoundedRectangle(cornerRadius: 12))
                Text(meal.name).font(.title2.bold())
                if let line = meal.categoryAndArea { Text(line).foregroundStyle(.secondary) }
            }
            Section("Ingredients") {
                ForEach(meal.ingredients, id: \.self) { ingredient in
                    LabeledContent(ingredient.name, value: ingredient.measure ?? "")
                }
            }
            if let instructions = meal.instructions {
                Section("Instructions") { Text(instructions) }
            }
            Section {
                ForEach(meal.links) { link in Link(link.label, destination: link.url) }
            }
        }
    }
}
