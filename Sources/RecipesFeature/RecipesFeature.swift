// The RecipesFeature module.
