import Foundation
import TestSupport
import Testing

@testable import MetMirror

/// `met mirror` run as a process: killed with SIGKILL again and again, cut off from its server, blocked, updated;
/// and `met search`/`met show` answering from the mirror.
@Suite("met mirror", .serialized)
struct MetMirrorCLITests {
    let tool: ToolProcess

    init() throws {
        tool = try ToolProcess("met")
    }

    func folder(_ name: String) -> String {
        tool.home.appendingPathComponent(name).path
    }

    func mirror(
        _ dir: String, _ root: String, _ extra: [String] = [], killAfter: Int? = nil,
        action: (@Sendable () -> Void)? = nil
    ) async throws -> KillableRun.Outcome {
        try await KillableRun.run(
            tool.executable, ["mirror", dir, "--base-url", root, "--no-cache", "--json"] + extra,
            environment: tool.environment, killAfter: killAfter, action: action)
    }

    func store(_ dir: String) throws -> MirrorStore {
        try MirrorStore(directory: URL(fileURLWithPath: dir))
    }

    func digest(_ dir: String) throws -> [String] {
        try store(dir).access { sqlite in
            var rows: [String] = []
            try sqlite.query(
                "SELECT q.id, q.status, o.json FROM queue q LEFT JOIN objects o ON o.id = q.id ORDER BY q.id"
            ) {
                row in
                rows.append("\(row.integer(0)) \(row.text(1) ?? "") \(String(decoding: row.data(2), as: UTF8.self))")
            }
            return rows
        }
    }

    @Test("killed with SIGKILL five times, the mirror is never damaged and ends identical to an uninterrupted one")
    func killNine() async throws {
        let replica = try await SyntheticReplica("2000/41/0")
        let reference = folder("reference"), killed = folder("killed")
        let whole = try await mirror(reference, replica.root, ["--rate", "5000"])
        #expect(whole.status == 0 && !whole.killed, "\(whole.lines.suffix(2))")
        let requestsBefore = try await replica.objectRequests()

        var points: [Int] = []
        var stored = 0
        for _ in 1...5 {
            let point = Int.random(in: 1...6)
            points.append(point)
            let run = try await mirror(killed, replica.root, ["--rate", "500", "--batch", "50"], killAfter: point)
            #expect(run.killed, "run \(points.count) was to be killed after \(point) batches: \(run.lines.suffix(2))")
            let check = try store(killed)
            #expect(try check.integrityCheck() == ["ok"], "after kill \(points.count) at batch \(point)")
            let counts = try check.counts()
            #expect(counts.listed == 2000)
            #expect(counts.fetched + counts.skipped > stored, "each killed run stored at least one batch")
            stored = counts.fetched + counts.skipped
        }
        #expect(stored < 2000, "the kills came before the end (points \(points))")
        let last = try await mirror(killed, replica.root, ["--rate", "5000"])
        #expect(last.status == 0 && !last.killed)
        #expect(last.lines.last?.contains("\"outcome\":\"completed\"") == true)
        #expect(try digest(killed) == digest(reference), "kill points \(points)")
        let requests = try await replica.objectRequests() - requestsBefore
        // Each kill may lose the batch it was fetching (50) and what was in flight (8), nothing stored before.
        #expect(requests <= 2000 + 5 * 58, "\(requests) object requests for 2000 objects, kill points \(points)")
    }

    @Test("a lost server ends the run with the network exit code; the next run continues")
    func lostNetwork() async throws {
        let replica = try await SyntheticReplica("600/42/0")
        let dir = folder("lost")
        // The replica vanishes once the mirror has stored two batches.
        let outcome = try await mirror(
            dir, replica.root, ["--rate", "300", "--batch", "30"], killAfter: 2, action: { replica.kill() })
        #expect(outcome.status == 4, "network failures exit with 4: \(outcome.lines.suffix(2))")
        #expect(try store(dir).integrityCheck() == ["ok"])
        #expect(try store(dir).phase() == .fetching(.full))
        await replica.stop()
        try await replica.start("600/42/0")
        let resumed = try await tool.run(["mirror", dir, "--base-url", replica.root, "--no-cache", "--rate", "5000"])
        #expect(resumed.status == 0, "\(resumed)")
        #expect(resumed.stdout.contains("Mirror complete"))
        let reference = folder("lost-reference")
        _ = try await mirror(reference, replica.root, ["--rate", "5000"])
        #expect(try digest(dir) == digest(reference))
    }

    @Test("--update says what changed and fetches only that")
    func update() async throws {
        let replica = try await SyntheticReplica("500/43/0")
        let dir = folder("update")
        #expect(try await mirror(dir, replica.root, ["--rate", "5000"]).status == 0)
        await replica.stop()
        try await replica.start("500/43/1")
        let before = try await replica.objectRequests()
        let updated = try await tool.run([
            "mirror", dir, "--update", "--base-url", replica.root, "--no-cache", "--rate", "5000",
        ])
        #expect(updated.status == 0, "\(updated)")
        let line = try #require(updated.stdout.split(separator: "\n").first { $0.hasPrefix("Updated:") })
        #expect(line.contains("5 new"), "\(line)")
        let changes = try #require(try store(dir).lastChanges())
        #expect(try await replica.objectRequests() - before == changes.added + changes.changed + changes.retried)
        let again = try await tool.run(["mirror", dir, "--base-url", replica.root, "--no-cache"])
        #expect(again.stdout.contains("is complete"))
    }

    @Test(
        "the Met's block ends the run with the tools' sentence and exit code", .enabled(if: TestServer.replica.isUsable)
    )
    func blocked() async throws {
        let dir = folder("blocked")
        let outcome = try await tool.run(
            ["mirror", dir, "--search", "__blocked__", "--base-url", try Replica.root(), "--no-cache"])
        #expect(outcome.status == 5, "\(outcome)")
        #expect(outcome.stderr.contains("blocked the requests as automated traffic"), "\(outcome)")
        #expect(try store(dir).integrityCheck() == ["ok"])
        #expect(try store(dir).phase() == .empty)
    }

    @Test("search and show answer from the mirror as they do online", .enabled(if: TestServer.replica.isUsable))
    func offline() async throws {
        let root = try Replica.root()
        let dir = folder("sample")
        #expect(try await mirror(dir, root, ["--rate", "5000"]).status == 0)
        for arguments in [["sunflowers"], ["cat", "--has-images"], ["sunflowers", "--geo", "France"]] {
            let online = try await tool.run(["search"] + arguments + ["--json", "--limit", "100", "--base-url", root])
            let offline = try await tool.run(["search"] + arguments + ["--json", "--limit", "100", "--mirror", dir])
            #expect(offline.status == 0, "\(offline)")
            #expect(try Self.ids(online) == Self.ids(offline), "\(arguments)")
        }
        let shownOnline = try await tool.run(["show", "7001", "--json", "--base-url", root])
        let shownOffline = try await tool.run(["show", "7001", "--json", "--mirror", dir])
        #expect(shownOffline.stdout == shownOnline.stdout)
        let ghost = try await tool.run(["show", "7404", "--mirror", dir])
        #expect(ghost.status == 3, "\(ghost)")
        let missing = try await tool.run(["search", "cat", "--mirror", folder("nothing-here")])
        #expect(missing.status == 2 && missing.stderr.contains("holds no mirror"), "\(missing)")
    }

    @Test(
        "an object over the body limit is skipped with its reason, the run completes, and --update tries it again",
        .enabled(if: TestServer.replica.isUsable))
    func oversizedObject() async throws {
        let root = try Replica.root()
        let dir = folder("oversized")
        let first = try await tool.run(["mirror", dir, "--search", "__oversized__", "--base-url", root, "--no-cache"])
        #expect(first.status == 0, "\(first)")
        #expect(first.stdout.contains("Mirror complete"), "\(first)")
        let line = try #require(first.stdout.split(separator: "\n").first { $0.hasPrefix("Skipped 1 ") }, "\(first)")
        #expect(line.contains("object 9413") && line.contains("larger than the limit of 16 MB"), "\(line)")
        let counts = try store(dir).counts()
        #expect(counts.fetched == 2 && counts.skipped == 1 && counts.pending == 0)
        let again = try await tool.run(["mirror", dir, "--search", "__oversized__", "--base-url", root, "--no-cache"])
        #expect(again.status == 0 && again.stdout.contains("is complete"), "\(again)")
        let updated = try await tool.run([
            "mirror", dir, "--search", "__oversized__", "--update", "--base-url", root, "--no-cache", "--json",
        ])
        #expect(updated.status == 0, "\(updated)")
        let finished = try #require(
            updated.stdout.split(separator: "\n").last.flatMap {
                try JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any]
            })
        let changes = try #require(finished["changes"] as? [String: Any])
        #expect(changes["retried"] as? Int == 1, "\(finished)")
        let skips = try #require(finished["skips"] as? [[String: Any]])
        #expect(skips.first?["firstID"] as? Int == 9413 && skips.first?["count"] as? Int == 1, "\(finished)")
    }

    @Test("the exit-code table lists 1, the code of a full disk")
    func exitCodeTable() async throws {
        let help = try await tool.run(["--help"])
        #expect(help.stdout.contains("1    a local failure"), "\(help)")
    }

    @Test("more than the Met's rate only against a loopback server")
    func rateLimit() async throws {
        let outcome = try await tool.run(
            ["mirror", folder("remote"), "--base-url", "https://collectionapi.example", "--rate", "200"])
        #expect(outcome.status == 2, "\(outcome)")
        #expect(outcome.stderr.contains("only against a loopback server"), "\(outcome)")
    }

    static func ids(_ outcome: ToolProcess.Outcome) throws -> Set<Int> {
        let document = try #require(try outcome.json() as? [String: Any])
        let objects = try #require(document["objects"] as? [[String: Any]])
        return Set(objects.compactMap { $0["objectID"] as? Int })
    }
}
