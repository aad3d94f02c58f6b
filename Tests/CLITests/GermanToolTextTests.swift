import CommandLine
import Foundation
import TestSupport
import Testing

/// The tools' own sentences come from the tables, in German when the locale says so.
@Suite("The tools' sentences in German")
struct GermanToolTextTests {
    /// A German locale for the tools' processes, with nothing more specific overriding `LANG`.
    static let german = ["LANG": "de_DE.UTF-8", "LC_ALL": "", "LC_MESSAGES": ""]

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
        let german = Self.german
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

    @Test("a count picks the singular or the plural sentence in both languages")
    func counted() {
        #expect(
            ToolText.counted("met.skippedNotServed", count: 1, ["ids": "7"], language: "en")
                == "skipped 1 object the Met does not serve: 7.")
        #expect(
            ToolText.counted("met.skippedNotServed", count: 2, ["ids": "7, 8"], language: "en")
                == "skipped 2 objects the Met does not serve: 7, 8.")
        #expect(
            ToolText.counted("met.skippedUnreadable", count: 1, ["ids": "9"], language: "de")
                == "1 Objekt übersprungen, dessen Antwort nicht lesbar war: 9.")
        #expect(
            ToolText.counted("met.gallerySubtitle", count: 12, ["shown": "3", "matches": "12"], language: "de")
                == "3 von 12 passenden Objekten")
        #expect(
            ToolText.counted("met.gallerySubtitle", count: 1, ["shown": "1", "matches": "1"], language: "de")
                == "1 von 1 passendem Objekt")
    }

    @Test("every key has both tables' sentence with the same placeholders")
    func samePlaceholders() throws {
        func placeholders(_ text: String) -> Set<String> {
            var names: Set<String> = []
            var rest = Substring(text)
            while let open = rest.firstIndex(of: "{"), let close = rest[open...].firstIndex(of: "}") {
                names.insert(String(rest[rest.index(after: open)..<close]))
                rest = rest[rest.index(after: close)...]
            }
            return names
        }
        for key in try Self.keys() {
            let english = ToolText.sentence(key, language: "en")
            let german = ToolText.sentence(key, language: "de")
            #expect(placeholders(english) == placeholders(german), "\(key): \(english) / \(german)")
        }
    }

    @Test(
        "met's result count, skip warnings and usage errors are German under LANG=de_DE.UTF-8",
        .enabled(if: TestServer.replica.isUsable))
    func metInGerman() async throws {
        let german = Self.german
        let met = try ToolProcess("met")
        let base = ["--base-url", try Replica.root(), "--no-cache"]
        let served = try await met.run(["search", "sunflowers", "--limit", "10"] + base, environment: german)
        #expect(served.status == 0, "\(served)")
        #expect(served.stderr.contains("Objekte übersprungen, die das Met nicht ausliefert: 7404, 7410."), "\(served)")
        #expect(served.stdout.contains("passenden Objekten. 'met show ID' zeigt eines vollständig."), "\(served)")
        #expect(!served.stdout.contains("matching objects"))
        let malformed = try await met.run(["search", "__malformed__"] + base, environment: german)
        #expect(
            malformed.stderr == "met: warning: 1 Objekt übersprungen, dessen Antwort nicht lesbar war: 9422.\n",
            "\(malformed)")
        let range = try await met.run(["search", "vase", "--from", "1900"] + base, environment: german)
        #expect(range.status == 2)
        #expect(range.stderr.contains("--from braucht auch --to"), "\(range)")
        let english = try await met.run(
            ["search", "vase", "--from", "1900"] + base, environment: ["LANG": "C", "LC_ALL": ""])
        #expect(english.stderr.contains("--from needs --to as well"), "\(english)")
    }
}
