import Errand
import Foundation
import TestSupport
import Testing

/// `mealdb` and `met` with `--record FILE.har` and `--replay FILE.har`, run as processes against the replica.
@Suite("--record and --replay", .serialized, .enabled(if: TestServer.replica.isUsable))
struct RecordReplayCLITests {
    let met: ToolProcess
    let mealdb: ToolProcess
    let root: String

    init() throws {
        met = try ToolProcess("met")
        mealdb = try ToolProcess("mealdb")
        root = try Replica.root()
    }

    @Test("met search sunflowers, recorded, replays to the same output without the server")
    func metSearch() async throws {
        let file = try HARFiles.make("met-sunflowers")
        let recorded = try await met.run([
            "search", "sunflowers", "--limit", "8", "--base-url", root, "--record", file.path,
        ])
        #expect(recorded.status == 0, "\(recorded)")
        let har = try HAR(contentsOf: file)
        #expect(har.log.entries.count >= 2, "the search and the objects")
        #expect(har.log.entries.first.map { $0.request.url.contains("/search?") } == true)
        let replayed = try await met.run([
            "search", "sunflowers", "--limit", "8", "--base-url", root, "--replay", file.path,
        ])
        #expect(replayed.status == 0, "\(replayed)")
        #expect(replayed.stdout == recorded.stdout)
        #expect(!replayed.stdout.isEmpty)
        let json = try await met.run(
            ["search", "sunflowers", "--limit", "8", "--json", "--base-url", root, "--replay", file.path])
        #expect(json.status == 0, "\(json)")
    }

    @Test("a request the recording lacks is exit 4, and the reason names the closest entry")
    func unmatched() async throws {
        let file = try HARFiles.make("mealdb-pasta")
        let recorded = try await mealdb.run(["search", "pasta", "--base-url", root, "--record", file.path])
        #expect(recorded.status == 0, "\(recorded)")
        let replayed = try await mealdb.run(["search", "pasta", "--base-url", root, "--replay", file.path])
        #expect(replayed.status == 0, "\(replayed)")
        #expect(replayed.stdout == recorded.stdout)
        let other = try await mealdb.run(["search", "soup", "--base-url", root, "--replay", file.path])
        #expect(other.status == 4, "\(other)")
        #expect(other.stderr.contains("The recording has no answer"), "\(other.stderr)")
        #expect(other.stderr.contains("s=pasta was recorded, not s=soup"), "\(other.stderr)")
    }

    @Test("a recorded body over mealdb's 4 MB limit fails as the live answer does; an oversized file is refused")
    func replayKeepsTheBodyLimit() async throws {
        let file = try HARFiles.make("mealdb-oversized")
        let recorded = try await mealdb.run(["search", "pasta", "--base-url", root, "--record", file.path])
        #expect(recorded.status == 0, "\(recorded)")
        var har = try HAR(contentsOf: file)
        let padded = "{\"meals\": null}" + String(repeating: " ", count: 6_000_000)
        har.log.entries[0].response.content = HAR.Content(
            size: padded.utf8.count, mimeType: "application/json", text: padded)
        try JSONEncoder().encode(har).write(to: file)
        let replayed = try await mealdb.run(["search", "pasta", "--base-url", root, "--replay", file.path])
        #expect(replayed.status == 6, "\(replayed)")
        #expect(replayed.stderr.contains("larger than the limit of 4 MB"), "\(replayed.stderr)")
        #expect(replayed.stdout.isEmpty)

        // Not among the recordings the run checks afterwards: it is no archive, only a size.
        let huge = FileManager.default.temporaryDirectory.appendingPathComponent("huge-\(UUID().uuidString).har")
        defer { try? FileManager.default.removeItem(at: huge) }
        #expect(FileManager.default.createFile(atPath: huge.path, contents: nil))
        let handle = try FileHandle(forWritingTo: huge)
        try handle.truncate(atOffset: 200_000_000)
        try handle.close()
        let refused = try await mealdb.run(["search", "pasta", "--base-url", root, "--replay", huge.path])
        #expect(refused.status == 2, "\(refused)")
        #expect(refused.stderr.contains("larger than the limit"), "\(refused.stderr)")
    }

    @Test("--replay with --offline, or without a readable file, is a usage error")
    func usage() async throws {
        let missing = try await met.run(["search", "x", "--replay", "/nonexistent/none.har"])
        #expect(missing.status == 2, "\(missing)")
        let file = try HARFiles.make("empty")
        _ = try HARRecorder(file: file)
        let offline = try await met.run(["search", "x", "--replay", file.path, "--offline"])
        #expect(offline.status == 2, "\(offline)")
    }

    @Test("--record keeps secrets redacted; only --record-secrets beside it writes them, and says so")
    func recordSecrets() async throws {
        let redacted = try HARFiles.make("mealdb-redacted")
        let plain = try await mealdb.run(["search", "pasta", "--base-url", root, "--record", redacted.path])
        #expect(plain.status == 0, "\(plain)")
        #expect(try HAR(contentsOf: redacted).log.comment == nil)
        #expect(!plain.stderr.contains("secrets in clear"), "\(plain.stderr)")
        let clear = try HARFiles.make("mealdb-secrets")
        let run = try await mealdb.run([
            "search", "pasta", "--base-url", root, "--record", clear.path, "--record-secrets",
        ])
        #expect(run.status == 0, "\(run)")
        #expect(run.stderr.contains("holds secrets in clear"), "\(run.stderr)")
        let log = try HAR(contentsOf: clear).log
        #expect(log.comment == HARRecorder.secretsWarning)
        #expect(log.creator.comment == HARRecorder.secretsWarning)
        let alone = try await mealdb.run(["search", "pasta", "--base-url", root, "--record-secrets"])
        #expect(alone.status == 2, "\(alone)")
        #expect(alone.stderr.contains("--record-secrets needs --record"), "\(alone.stderr)")
    }

    @Test("a recording killed with SIGKILL midway is a valid archive of the exchanges so far")
    func killed() async throws {
        let replica = try await SyntheticReplica("2000/43/0")
        let file = try HARFiles.make("killed-mirror")
        let folder = met.home.appendingPathComponent("mirror-\(UUID().uuidString)").path
        let run = try await KillableRun.run(
            met.executable,
            [
                "mirror", folder, "--base-url", replica.root, "--no-cache", "--json", "--rate", "500", "--batch", "50",
                "--record", file.path,
            ],
            environment: met.environment, killAfter: 3)
        #expect(run.killed, "\(run.lines.suffix(2))")
        let har = try HAR(contentsOf: file)
        #expect(har.log.entries.count >= 1, "the exchanges before the kill were written")
        #expect(har.log.entries.allSatisfy { $0.response.status > 0 || $0.errandError != nil })
    }
}
