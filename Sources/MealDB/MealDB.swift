// The MealDB module.
