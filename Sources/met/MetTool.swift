import CommandLine
import Errand

/// The `met` tool as data: its commands, options and help.
enum MetTool {
    /// The package's version: the tools ship with the library.
    static let version = ClientConfiguration.libraryVersion

    static let definition = Tool(
        name: "met", version: version,
        summary: "The Metropolitan Museum of Art's collection on the command line.",
        options: NetworkOptions.options(baseURLVariable: "MET_BASE_URL"),
        commands: [
            Command(
                "search", summary: "Objects matching QUERY, fetched in search order.",
                discussion: """
                    Searches, then fetches the first --limit objects at most --rate requests per second and \
                    --concurrency at a time. Objects the Met does not serve are skipped and reported.
                    """,
                positionals: [Positional("QUERY", help: "What to look for, as sunflowers or \"Van Gogh\".")],
                options: [
                    .flag("highlight", help: "Only the museum's highlights (isHighlight=true)."),
                    .flag("title", help: "Match the title only (title=true)."),
                    .flag("tags", help: "Match subject keywords only (tags=true)."),
                    .flag("on-view", help: "Only objects on view (isOnView=true)."),
                    .flag("artist-or-culture", help: "Match artist or culture only (artistOrCulture=true)."),
                    .flag("has-images", help: "Only objects with images (hasImages=true)."),
                    .value("department", "ID", help: "Only this department (see 'met departments')."),
                    .value("medium", "A|B", help: "Only these materials or object types, as \"Quilts|Silk\"."),
                    .value("geo", "A|B", help: "Only these places, as \"France|Paris\"."),
                    .value("from", "YEAR", help: "Made in or after YEAR (negative for B.C.); needs --to."),
                    .value("to", "YEAR", help: "Made in or before YEAR; needs --from."),
                    .value("limit", "N", help: "Fetch at most N objects (default 20)."),
                    .flag("ids-only", help: "Print the matching IDs without fetching the objects."),
                    .value("rate", "R", help: "At most R object requests per second, 0.01 to 1000 (default 80)."),
                    .value("concurrency", "C", help: "At most C object requests in flight (default 8)."),
                    .value("html", "DIR", help: "Also write a gallery (DIR/index.html and DIR/thumbnails/)."),
                    .value("mirror", "DIR", help: "Answer from the mirror in DIR (see 'met mirror'), offline."),
                ],
                examples: [
                    "met search sunflowers", "met search cat --has-images --limit 5 --json",
                    "met search \"Van Gogh\" --artist-or-culture --from 1880 --to 1890 --html vangogh",
                    "met search quilt --ids-only",
                ]),
            Command(
                "show", summary: "One object in full.",
                discussion: "Exits with 3 when the Met has no such object.",
                positionals: [Positional("ID", help: "The object's ID, as 436535.")],
                options: [.value("mirror", "DIR", help: "Answer from the mirror in DIR (see 'met mirror'), offline.")],
                examples: ["met show 436535", "met show 436535 --json", "met show 436535 --mirror met-mirror"]),
            MirrorCommand.definition,
            Command("departments", summary: "The museum's departments and their IDs.", examples: ["met departments"]),
            Command(
                "objects", summary: "The IDs of every object, or of those updated since a day or in departments.",
                options: [
                    .value("since", "YYYY-MM-DD", help: "Only objects whose record changed on or after this day."),
                    .repeatable("department", "ID", help: "Only objects of this department."),
                ],
                examples: ["met objects --since 2024-01-01 --department 1 --department 3 --json"]),
            Command(
                "browse", summary: "The museum app, full-screen: search, objects as they arrive, departments.",
                discussion: """
                    Needs a terminal (exits with 2 when stdout is not one). Keys: / types in "Search the Met" and \
                    Enter searches (a new search cancels the running one), arrows or j/k move, Enter opens, Esc or \
                    Backspace goes back, Enter on a department makes it the filter, r retries, ? shows help, q quits.
                    """,
                options: [
                    .value("limit", "N", help: "Fetch at most N objects a search (default 20)."),
                    .value("rate", "R", help: "At most R object requests per second, 0.01 to 1000 (default 80)."),
                    .value("mirror", "DIR", help: "Answer from the mirror in DIR (see 'met mirror'), offline."),
                ],
                examples: ["met browse", "met browse --limit 50"]),
        ],
        epilogue: """
            Environment:
              MET_BASE_URL  server root, as --base-url (the flag wins)
              NO_COLOR      no colors in the output

            \(ExitCode.helpTable)
            """)
}
