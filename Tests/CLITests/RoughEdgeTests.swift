import Foundation
import TestSupport
import Testing

/// The tools as a person meets them at their edges: many skipped objects, a server that never answers, an API key
/// that is a path step. Each runs the built binary against a raw-socket server on loopback.
@Suite("The tools' rough edges")
struct RoughEdgeTests {
    /// A Met search answer of `count` IDs, served for every request: each object's answer is that list too, which
    /// no object decodes from, so every one is skipped as unreadable.
    static func searchServer(ids count: Int) throws -> HostileServer {
        let ids = (1...count).map(String.init).joined(separator: ",")
        let body = Array("{\"total\":\(count),\"objectIDs\":[\(ids)]}".utf8)
        return try HostileServer(
            head: [
                "HTTP/1.1 200 OK", "Content-Type: application/json", "Content-Length: \(body.count)",
                "Connection: close",
            ], body: body)
    }

    @Test("met search names the first ten skipped IDs and counts the rest; --json lists them all")
    func manySkipped() async throws {
        let server = try Self.searchServer(ids: 150)
        let tool = try ToolProcess("met")
        let arguments = ["search", "anything", "--limit", "150", "--no-cache", "--base-url", server.root]
        let outcome = try await tool.run(arguments)
        #expect(outcome.status == 0, "\(outcome)")
        let lines = outcome.stderr.split(separator: "\n")
        #expect(lines.count == 1, "\(outcome)")
        #expect(outcome.stderr.contains("skipped 150 objects"))
        #expect(outcome.stderr.contains("1, 2, 3, 4, 5, 6, 7, 8, 9, 10 and 140 more (--json lists every ID)."))
        #expect(!outcome.stderr.contains("11,"))
        #expect(outcome.stderr.utf8.count < 200)
        let json = try await tool.run(arguments + ["--json"])
        let document = try #require(try json.json() as? [String: Any])
        #expect((document["skipped"] as? [Int])?.sorted() == Array(1...150))
    }

    @Test("a few skipped IDs are all named")
    func fewSkipped() async throws {
        let server = try Self.searchServer(ids: 3)
        let outcome = try await ToolProcess("met").run(["search", "x", "--no-cache", "--base-url", server.root])
        #expect(outcome.stderr.contains("skipped 3 objects whose answer could not be read: 1, 2, 3.\n"), "\(outcome)")
    }

    /// Both tools make the attempts their help promises, each with the whole `--timeout`: a server that reads every
    /// request and never answers sees exactly that many.
    @Test("--timeout is per attempt in both tools, as their help says", arguments: ["mealdb", "met"])
    func timeoutPerAttempt(_ name: String) async throws {
        let tool = try ToolProcess(name)
        let help = try await tool.run(["--help"])
        // Help wraps to the terminal's width: read it as one line.
        let text = help.stdout.split(whereSeparator: \.isWhitespace).joined(separator: " ")
        #expect(text.contains("--timeout SECONDS Seconds each attempt may take (a request makes up to 3)"), "\(help)")
        let held = try HostileServer(response: [], holdsResponses: true)
        let command = name == "mealdb" ? ["areas"] : ["departments"]
        let outcome = try await tool.run(command + ["--no-cache", "--base-url", held.root, "--timeout", "0.2"])
        #expect(outcome.status == 4, "\(outcome)")
        #expect(held.requestHeads.count == 3, "\(held.requestHeads)")
    }

    @Test("mealdb refuses '.' and '..' as an API key in a plain sentence", arguments: [".", ".."])
    func dotKey(_ key: String) async throws {
        let server = try HostileServer(response: [], holdsResponses: false)
        for arguments in [["areas", "--api-key", key], ["areas"]] {
            let outcome = try await ToolProcess("mealdb").run(
                arguments + ["--base-url", server.root], environment: ["MEALDB_API_KEY": key])
            #expect(outcome.status == 2, "\(outcome)")
            #expect(
                outcome.stderr.contains("the API key cannot be '\(key)': it would be read as a step in the URL's path"))
            #expect(!outcome.stderr.contains("***"))
        }
        #expect(server.requestHeads.isEmpty)
    }
}
