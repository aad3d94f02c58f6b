import Errand
import FeatureViews
import MealDB
import RecipesFeature
import SwiftUI

/// Every category with its picture; a category opens its meals.
struct CategoriesView: View {
    let client: MealDBClient
    let pictures: DataPipeline
    @State private var model: CategoriesModel

    init(client: MealDBClient, pictures: DataPipeline) {
        self.client = client
        self.pictures = pictures
        _model = State(initialValue: CategoriesModel(client: client))
    }

    var body: some View {
        Group {
            if let status = model.status {
                StatusView(status, retryLabel: RecipeText.tryAgain) { await model.retry() }
            } else {
                List(model.state.value ?? []) { category in
                    NavigationLink(value: category) {
                        PictureRow(
                            title: category.name, subtitle: nil,
                            picture: MealPicture(url: category.thumbnail, pipeline: pictures))
                    }
                }
                .listStyle(.plain)
            }
        }
        .navigationTitle("Categories")
        .navigationDestination(for: MealCategory.self) { category in
            MealsView(filter: .category(category.name), client: client, pictures: pictures)
        }
        .task { await model.loadIfIdle() }
        .refreshable { await model.refresh() }
    }
}
