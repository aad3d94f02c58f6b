@testable import Errand
import Foundation
import Testing
import TestSupport

/// Another process holding the cache file: the tools say so, keep working from memory, and `--offline` explains why
/// it has nothing to answer from instead of claiming the entry was never cached.
@Suite("mealdb with a cache another process holds", .enabled(if: TestServer.replica.isUsable))
struct CacheInUseTests {
    @Test("a cached entry behind another process's lock: a warning naming the file, online and offline")
    func cacheInUse() async throws {
        let tool = try ToolProcess("mealdb")
        let base = ["--base-url", try Replica.root()]
        let online = try await tool.run(["areas", "--json"] + base)
        #expect(online.status == 0, "\(online)")

        let file = tool.home.appendingPathComponent("cache/errand/mealdb.sqlite")
        let holder = try SQLiteConnection(path: file.path)
        try holder.execute(
            "PRAGMA locking_mode = EXCLUSIVE; BEGIN EXCLUSIVE; UPDATE totals SET count = count WHERE id = 1")
        defer { try? holder.execute("COMMIT") }

        let again = try await tool.run(["areas", "--json"] + base)
        #expect(again.status == 0, "\(again)")
        #expect(again.stdout == online.stdout)
        #expect(
            again.stderr
                == "mealdb: warning: The cache at \(file.path) is in use by another process, so this run keeps answers in memory only.\n"
        )

        let offline = try await tool.run(["areas", "--offline"] + base)
        #expect(offline.status == 4, "\(offline)")
        #expect(
            offline.stderr.hasPrefix(
                "mealdb: warning: The cache at \(file.path) is in use by another process, so --offline has nothing cached to answer from.\n"
            ))
    }
}
