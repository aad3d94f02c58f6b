// The README's code blocks and some of the catalogs', compiled and run. Each file holds blocks verbatim
// (scripts/examples checks that they still match) inside a function that points them at the server named by
// ERRAND_EXAMPLES_BASE_URL — the project's replica of both APIs, which scripts/examples starts — instead of the live
// services.
import Foundation

guard let text = ProcessInfo.processInfo.environment["ERRAND_EXAMPLES_BASE_URL"], let replica = URL(string: text) else {
    let usage = "errand-examples: set ERRAND_EXAMPLES_BASE_URL to the replica's root URL (scripts/examples does)\n"
    FileHandle.standardError.write(Data(usage.utf8))
    exit(2)
}

let examples: [(name: String, run: @Sendable (URL) async throws -> Void)] = [
    ("README: The SDKs (TheMealDB)", readmeMealDB),
    ("README: The SDKs (The Met)", readmeMet),
    ("README: The first request", readmeClient),
    ("Errand: Checklist for app developers", articleChecklist),
    ("Errand: Uploads, downloads and event streams (curl command)", articleCurlCommand),
    ("RecipesFeature: Building an app on the feature modules", { try await articleMealSearch(replica: $0) }),
    ("MuseumFeature: the landing page", { try await articleMuseumSearch(replica: $0) }),
]
for example in examples {
    print("== \(example.name)")
    do {
        try await example.run(replica)
    } catch {
        FileHandle.standardError.write(Data("errand-examples: \(example.name) failed: \(error)\n".utf8))
        exit(1)
    }
}
