import CommandLine
import Errand

/// The `mealdb` tool as data: its commands, options and help.
enum MealDBTool {
    /// The package's version: the tools ship with the library.
    static let version = ClientConfiguration.libraryVersion

    static let htmlOption = Option.value(
        "html", "DIR", help: "Also write a gallery (DIR/index.html and DIR/thumbnails/) that works offline.")

    static let definition = Tool(
        name: "mealdb", version: version,
        summary: "recipes from TheMealDB on the command line.",
        options: NetworkOptions.options(baseURLVariable: "MEALDB_BASE_URL") + [
            .value("api-key", "KEY", help: "TheMealDB API key (env MEALDB_API_KEY); default 1, the public test key.")
        ],
        commands: [
            Command(
                "search", summary: "Meals whose name contains TEXT.",
                positionals: [Positional("TEXT", help: "Part of a meal's name, as pasta or \"mac and cheese\".")],
                options: [htmlOption],
                examples: [
                    "mealdb search pasta", "mealdb search \"chicken curry\" --json", "mealdb search cake --html cakes",
                ]),
            Command(
                "letter", summary: "Meals whose name starts with a letter.",
                positionals: [Positional("L", help: "One letter from a to z.")],
                examples: ["mealdb letter b"]),
            Command(
                "show", summary: "One meal in full: ingredients, instructions, links.",
                discussion: "Exits with 3 when TheMealDB has no meal with that id.",
                positionals: [Positional("ID", help: "The meal's id, as 52771.")],
                examples: ["mealdb show 52771", "mealdb show 52771 --json"]),
            Command(
                "random", summary: "One meal picked at random, or ten with --selection.",
                discussion: "--selection needs a premium key (--api-key or MEALDB_API_KEY).",
                options: [.flag("selection", help: "Ten meals picked at random, in full (premium).")],
                examples: ["mealdb random", "mealdb random --selection --api-key KEY --json"]),
            Command(
                "latest", summary: "The meals added most recently, newest first (premium).",
                discussion:
                    "Needs a premium key (--api-key or MEALDB_API_KEY); exits with 2 before any request without one.",
                options: [htmlOption],
                examples: ["mealdb latest --api-key KEY", "MEALDB_API_KEY=KEY mealdb latest --json"]),
            Command("categories", summary: "Every category, with its description.", examples: ["mealdb categories"]),
            Command("areas", summary: "Every area (cuisine).", examples: ["mealdb areas --json"]),
            Command("ingredients", summary: "Every ingredient TheMealDB knows.", examples: ["mealdb ingredients"]),
            Command(
                "filter", summary: "Meals of a category, an area or with ingredients (exactly one kind).",
                discussion: """
                    Repeat --ingredient for the meals that use every one of them; that needs a premium key \
                    (--api-key or MEALDB_API_KEY).
                    """,
                options: [
                    .value("category", "C", help: "Meals of this category, as Seafood."),
                    .value("area", "A", help: "Meals of this area, as Italian."),
                    .repeatable(
                        "ingredient", "I", help: "Meals with this ingredient, as chicken_breast; repeatable (premium)."),
                    htmlOption,
                ],
                examples: [
                    "mealdb filter --category Seafood", "mealdb filter --area Italian --html italian",
                    "mealdb filter --ingredient chicken_breast --ingredient garlic --api-key KEY",
                ]),
            Command(
                "browse", summary: "The recipe app, full-screen: categories, areas, search as you type, recipes.",
                discussion: """
                    Needs a terminal (exits with 2 when stdout is not one). Keys: arrows or j/k move, Enter opens, \
                    Esc or Backspace goes back, / types in the search field, r retries, ? shows help, q quits. \
                    Pictures show in colour terminals (24-bit with COLORTERM=truecolor), not with NO_COLOR.
                    """,
                examples: ["mealdb browse", "mealdb browse --offline"]),
        ],
        epilogue: """
            Environment:
              MEALDB_BASE_URL  server root, as --base-url (the flag wins)
              MEALDB_API_KEY   API key, as --api-key (the flag wins)
              NO_COLOR         no colors in the output

            \(ExitCode.helpTable)
            """)
}
