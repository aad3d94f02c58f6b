import CommandLine
import Foundation
import TestSupport
import Testing

/// The tools' own sentences come from the tables, in German when the locale says so.
@Suite("The tools' sentences in German")
struct GermanToolTextTests {
    /// The keys of the English table, read from the source tree.
    static func keys() throws -> [String] {
        let table = Fixtures.packageRoot.appendingPathComponent(
            "Sources/CommandLine/Resources/en.lproj/Localizable.strings")
        return try String(contentsOf: table, encoding: .utf8).split(separator: "\n").compactMap { line in
            guard line.hasPrefix("\""), let end = line.dropFirst().firstIndex(of: "\"") else { return nil }
            return String(line[line.index(after: line.startIndex)..<end])
        }
    }

    @Test("every English sentence has a German one of its own")
    func everyKeyTranslated() throws {
        let keys = try Self.keys()
        #expect(keys.count > 30)
        for key in keys {
            let english = ToolText.sentence(key, language: "en")
            let german = ToolText.sentence(key, language: "de")
            #expect(english != key, "\(key) has no English sentence")
            #expect(german != english, "\(key) is not translated")
        }
    }

    @Test("a usage error is worded in German, option names as they are")
    func usageError() {
        let error = UsageError(
            ToolText.sentence("usage.unknownOption", ["word": "-x"], language: "de"), helpCommand: "mealdb")
        #expect(error.problem == "unbekannte Option '-x'")
        #expect(
            ToolText.sentence("usage.seeHelp", ["problem": "x.", "command": "met"], language: "de")
                == "x. Siehe 'met --help'.")
    }

    @Test(
        "mealdb and met answer in German under LANG=de_DE.UTF-8, and in English under C",
        .enabled(if: TestServer.replica.isUsable))
    func tools() async throws {
        let german = ["LANG": "de_DE.UTF-8", "LC_ALL": "", "LC_MESSAGES": ""]
        let mealdb = try ToolProcess("mealdb")
        let base = ["--base-url", try Replica.root()]
        let none = try await mealdb.run(["search", "xyzzy"] + base, environment: german)
        #expect(none.status == 0, "\(none)")
        #expect(none.stdout == "Keine Gerichte zu \"xyzzy\" gefunden.\n")
        let category = try await mealdb.run(["filter", "--category", "Nothing"] + base, environment: german)
        #expect(category.stdout == "Keine Gerichte der Kategorie \"Nothing\" gefunden.\n")
        let usage = try await mealdb.run(["search", "pasta", "--bogus"] + base, environment: german)
        #expect(usage.status == 2)
        #expect(usage.stderr.contains("unbekannte Option '--bogus'"), "\(usage)")
        #expect(usage.stderr.contains("Siehe 'mealdb search --help'."), "\(usage)")

        let met = try await ToolProcess("met").run(["search", "zzzqqq", "--no-cache"] + base, environment: german)
        #expect(met.stdout == "Keine Objekte zu \"zzzqqq\" gefunden.\n", "\(met)")

        let english = try await mealdb.run(["search", "xyzzy"] + base, environment: ["LANG": "C", "LC_ALL": ""])
        #expect(english.stdout == "No meals found for \"xyzzy\".\n")
    }
}
