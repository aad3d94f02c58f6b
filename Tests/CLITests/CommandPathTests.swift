import Foundation
import TestSupport
import Testing

/// Every command of both tools on its three paths: a result, an empty result (exit 0 with a sentence, `[]` or an
/// empty list in JSON), and a failure (one sentence on stderr, the failure class's exit code).
@Suite("Each command's success, empty and failure paths", .enabled(if: TestServer.replica.isUsable))
struct CommandPathTests {
    static let key = "replica-supporter"

    /// A mealdb command, a word its human output must contain, and what it prints when nothing matches.
    static let mealdbCommands: [(arguments: [String], found: String, empty: [String]?, emptySentence: String?)] = [
        (["search", "pasta"], "Lemon Garlic Pasta", ["search", "xyzzy"], #"No meals found for "xyzzy"."#),
        (["letter", "l"], "Lemon Garlic Pasta", ["letter", "q"], #"No meals start with "q"."#),
        (["show", "90001"], "Lemon Garlic Pasta", nil, nil),
        (["random"], "Ingredients", nil, nil),
        (["random", "--selection", "--api-key", key], "meals.", nil, nil),
        (["latest", "--api-key", key], "meals.", nil, nil),
        (["categories"], "Pasta", nil, nil),
        (["areas"], "Italian", nil, nil),
        (["ingredients"], "ingredients.", nil, nil),
        (
            ["filter", "--category", "Pasta"], "Pasta", ["filter", "--category", "Nothing"],
            #"No meals found for category "Nothing"."#
        ),
        (
            ["filter", "--area", "Italian"], "meals.", ["filter", "--area", "Atlantis"],
            #"No meals found for area "Atlantis"."#
        ),
        (
            ["filter", "--ingredient", "garlic"], "meals.", ["filter", "--ingredient", "unobtainium"],
            #"No meals found for ingredient "unobtainium"."#
        ),
    ]

    static let metCommands: [(arguments: [String], found: String, empty: [String]?, emptySentence: String?)] = [
        (
            ["search", "sunflowers", "--limit", "3"], "matching objects", ["search", "zzzqqq"],
            #"No objects found for "zzzqqq"."#
        ),
        (
            ["search", "sunflowers", "--ids-only"], "object IDs.", ["search", "zzzqqq", "--ids-only"],
            "No objects found."
        ),
        (["show", "7001"], "object 7001", nil, nil),
        (["departments"], "American Decorative Arts", nil, nil),
        (["objects", "--department", "1"], "object IDs.", ["objects", "--department", "999"], "No objects found."),
    ]

    static var allCommands: [(tool: String, arguments: [String], found: String)] {
        mealdbCommands.map { ("mealdb", $0.arguments, $0.found) } + metCommands.map { ("met", $0.arguments, $0.found) }
    }

    static var emptyCommands: [(tool: String, arguments: [String], sentence: String)] {
        mealdbCommands.compactMap { command in
            command.empty.map { ("mealdb", $0, command.emptySentence ?? "") }
        } + metCommands.compactMap { command in command.empty.map { ("met", $0, command.emptySentence ?? "") } }
    }

    func run(_ tool: String, _ arguments: [String], base: String? = nil) async throws -> ToolProcess.Outcome {
        try await ToolProcess(tool).run(arguments + ["--base-url", try base ?? Replica.root()])
    }

    @Test(
        "success: the result on stdout, nothing on stderr, exit 0",
        arguments: allCommands.map { [$0.tool] + $0.arguments + [$0.found] })
    func success(_ command: [String]) async throws {
        let outcome = try await run(command[0], Array(command.dropFirst().dropLast()))
        #expect(outcome.status == 0, "\(outcome)")
        #expect(outcome.stdout.contains(command.last ?? ""), "\(outcome)")
        #expect(outcome.stderr.isEmpty || command.contains("search"), "\(outcome)")
    }

    @Test("success in JSON: one document on stdout", arguments: allCommands.map { [$0.tool] + $0.arguments })
    func successJSON(_ command: [String]) async throws {
        let outcome = try await run(command[0], Array(command.dropFirst()) + ["--json"])
        #expect(outcome.status == 0, "\(outcome)")
        _ = try outcome.json()
    }

    @Test("empty: a sentence and exit 0", arguments: emptyCommands.map { [$0.tool] + $0.arguments + [$0.sentence] })
    func empty(_ command: [String]) async throws {
        let outcome = try await run(command[0], Array(command.dropFirst().dropLast()))
        #expect(outcome.status == 0, "\(outcome)")
        #expect(outcome.stdout.trimmingCharacters(in: .whitespacesAndNewlines) == command.last, "\(outcome)")
    }

    @Test(
        "failure: a refused connection is one sentence naming the server and --base-url, exit 4",
        arguments: allCommands.map { [$0.tool] + $0.arguments })
    func failure(_ command: [String]) async throws {
        let outcome = try await run(command[0], Array(command.dropFirst()), base: try closedPort())
        #expect(outcome.status == 4, "\(outcome)")
        #expect(outcome.stdout.isEmpty)
        let lines = outcome.stderr.split(separator: "\n")
        #expect(lines.count == 1, "\(outcome)")
        #expect(lines.first?.hasPrefix("\(command[0]): error: Could not reach 127.0.0.1:") == true, "\(outcome)")
        #expect(outcome.stderr.contains("--base-url"))
    }
}
