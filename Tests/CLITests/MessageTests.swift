import Foundation
import Testing
import TestSupport

/// `met search`'s sentences say what happened: an answer that could not be read is not an object the Met declined,
/// and `--limit 0` fetches nothing on purpose.
@Suite("met search messages", .enabled(if: TestServer.replica.isUsable))
struct MetMessagesTests {
    private func run(_ arguments: [String]) async throws -> ToolProcess.Outcome {
        try await ToolProcess("met").run(arguments + ["--base-url", try Replica.root(), "--no-cache"])
    }

    @Test("a malformed object is reported as unreadable, apart from objects the Met does not serve")
    func malformedObject() async throws {
        let outcome = try await run(["search", "__malformed__"])
        #expect(outcome.status == 0, "\(outcome)")
        #expect(outcome.stderr == "met: warning: skipped 1 object whose answer could not be read: 9422.\n")
        #expect(outcome.stdout.contains("7001"))

        let served = try await run(["search", "sunflowers", "--limit", "10"])
        #expect(served.stderr.contains("the Met does not serve: 7404, 7410."))
        #expect(!served.stderr.contains("could not be read"))
    }

    @Test("--limit 0 says it fetched none on purpose")
    func limitZero() async throws {
        let outcome = try await run(["search", "sunflowers", "--limit", "0"])
        #expect(outcome.status == 0, "\(outcome)")
        #expect(
            outcome.stdout.hasSuffix("objects match; --limit 0 fetches none of them (--ids-only lists their IDs).\n"),
            "\(outcome)")
    }
}

/// Sentences that name the real cause and the documented numbers.
@Suite("Failure messages", .enabled(if: TestServer.replica.isUsable))
struct FailureMessageTests {
    @Test("--html naming an existing file says so, exit 1, and leaves the file as it was")
    func galleryOverAFile() async throws {
        let tool = try ToolProcess("mealdb")
        let file = tool.home.appendingPathComponent("notes.txt")
        try Data("keep".utf8).write(to: file)
        let outcome = try await tool.run(["search", "pasta", "--html", file.path, "--base-url", try Replica.root()])
        #expect(outcome.status == 1, "\(outcome)")
        #expect(outcome.stderr == "mealdb: error: Could not write the gallery: \(file.path) is a file, not a folder.\n")
        #expect(try Data(contentsOf: file) == Data("keep".utf8))
    }
}
