print("mealdb")
