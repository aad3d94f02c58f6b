import RecipesFeature

/// A page of `mealdb browse`.
public enum RecipePage: Hashable, Sendable {
    /// The categories and areas to pick from.
    case home
    /// The results of the search field.
    case search
    /// The meals of a category or an area.
    case meals(FilteredMealsModel.Filter)
    /// One meal.
    case meal(id: String)
}
