import CommandLine
import MealDB

/// Prints TheMealDB's values as one JSON document (`--json`) or as text for people.
struct MealOutput {
    let console: Console
    let json: Bool

    private var width: Int { console.terminal.width }
    private var style: Style { console.outStyle }

    func meals(_ meals: [Meal], emptyMessage: String) {
        if json { return console.printJSON(.array(meals.map(\.json))) }
        guard !meals.isEmpty else { return console.print(emptyMessage) }
        let rows = meals.map { meal in
            [meal.id, meal.name, [meal.category, meal.area].compactMap { $0 }.joined(separator: " · ")]
        }
        console.print(TextLayout.columns(rows, width: width))
        console.print(
            style.dim("\(meals.count) meal\(meals.count == 1 ? "" : "s"). Run 'mealdb show ID' for a recipe."))
    }

    func summaries(_ meals: [MealSummary], emptyMessage: String) {
        if json { return console.printJSON(.array(meals.map(\.json))) }
        guard !meals.isEmpty else { return console.print(emptyMessage) }
        console.print(TextLayout.columns(meals.map { [$0.id, $0.name] }, width: width))
        console.print(
            style.dim("\(meals.count) meal\(meals.count == 1 ? "" : "s"). Run 'mealdb show ID' for a recipe."))
    }

    func meal(_ meal: Meal) {
        if json { return console.printJSON(meal.json) }
        var sections: [String] = []
        var heading = style.bold(meal.name)
        if let alternate = meal.alternateName { heading += " " + style.dim("(\(alternate))") }
        let facts = [meal.category, meal.area].compactMap { $0 }.joined(separator: " · ")
        sections.append(
            [
                heading, facts.isEmpty ? nil : facts,
                meal.tags.isEmpty ? nil : "Tags: " + meal.tags.joined(separator: ", "),
            ]
            .compactMap { $0 }.joined(separator: "\n"))
        if !meal.ingredients.isEmpty {
            let rows = meal.ingredients.map { [$0.measure ?? "", $0.name] }
            sections.append(style.bold("Ingredients") + "\n" + TextLayout.columns(rows, width: width, indent: 2))
        }
        if let instructions = meal.instructions {
            sections.append(style.bold("Instructions") + "\n" + TextLayout.wrap(instructions, width: width, indent: 2))
        }
        let links = [
            ("Picture", meal.thumbnail?.absoluteString), ("Video", meal.youtube?.absoluteString),
            ("Source", meal.source?.absoluteString),
        ].compactMap { label, url in url.map { [label, $0] } }
        if !links.isEmpty { sections.append(TextLayout.columns(links, width: 10_000)) }
        sections.append(style.dim("id \(meal.id)"))
        console.print(sections.joined(separator: "\n\n"))
    }

    func categories(_ categories: [MealCategory]) {
        if json { return console.printJSON(.array(categories.map(\.json))) }
        guard !categories.isEmpty else { return console.print(ToolText.sentence("mealdb.noCategories")) }
        let rows = categories.map { [$0.name, Self.firstSentence(of: $0.description ?? "")] }
        console.print(TextLayout.columns(rows, width: width))
    }

    func areas(_ areas: [Area]) {
        if json { return console.printJSON(JSONValue(areas.map(\.name))) }
        guard !areas.isEmpty else { return console.print(ToolText.sentence("mealdb.noAreas")) }
        console.print(areas.map(\.name).joined(separator: "\n"))
    }

    func ingredients(_ ingredients: [Ingredient]) {
        if json { return console.printJSON(.array(ingredients.map(\.json))) }
        guard !ingredients.isEmpty else { return console.print(ToolText.sentence("mealdb.noIngredients")) }
        console.print(TextLayout.columns(ingredients.map { [$0.id, $0.name, $0.type ?? ""] }, width: width))
        console.print(style.dim("\(ingredients.count) ingredients."))
    }

    /// The first sentence of a description, for one-line lists.
    static func firstSentence(of text: String) -> String {
        let flat = text.split(whereSeparator: \.isNewline).first.map(String.init) ?? ""
        guard let end = flat.range(of: ". ") else { return flat }
        return String(flat[..<end.lowerBound]) + "."
    }
}
