@testable import Errand
import Foundation
import TestSupport
import Testing

@Suite("Disk store")
struct SQLiteStoreTests {
    private func body(_ seed: Int, size: Int) -> Data {
        Data((0..<size).map { UInt8(truncatingIfNeeded: $0 &* 31 &+ seed) })
    }

    @Test func storesAndReadsBackEveryField() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let received = Date(timeIntervalSince1970: 1_700_000_000.25)
        do {
            let store = try SQLiteStore(fileURL: folder.file("c.sqlite"), sizeLimit: 1_000_000)
            store.store(
                CachedResponse(
                    url: "http://h/a", variant: "accept-language:en", status: 203,
                    headers: ["ETag": "\"x\"", "Set-Cookie": "a=1", "set-cookie": "b=2: c"], body: body(1, size: 5_000),
                    requestTime: received.addingTimeInterval(-1), responseTime: received))
        }
        let reopened = try SQLiteStore(fileURL: folder.file("c.sqlite"), sizeLimit: 1_000_000)
        let entry = try #require(reopened.responses(for: "http://h/a").first)
        #expect(entry.status == 203 && entry.variant == "accept-language:en")
        #expect(entry.headers.values(for: "set-cookie") == ["a=1", "b=2: c"])
        #expect(entry.body == body(1, size: 5_000))
        #expect(entry.responseTime == received && entry.requestTime == received.addingTimeInterval(-1))
        #expect(reopened.responses(for: "http://h/b").isEmpty)
    }

    @Test func evictionKeepsTheStoreUnderItsLimitAndDropsTheLeastRecentlyUsed() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let limit = 64 * 1024
        let store = try SQLiteStore(fileURL: folder.file("c.sqlite"), sizeLimit: limit)
        for index in 0..<100 {
            store.store(makeEntry(url: "http://h/\(index)", body: body(index, size: 4_000)))
            // Entry 0 is read after every write: recency, not age, decides what goes.
            _ = store.responses(for: "http://h/0")
            #expect(store.byteCount <= limit)
        }
        #expect(store.entryCount > 10 && store.entryCount < 20)
        #expect(store.responses(for: "http://h/0").first?.body == body(0, size: 4_000))
        #expect(store.responses(for: "http://h/99").count == 1)
        #expect(store.responses(for: "http://h/1").isEmpty)
        #expect(store.responses(for: "http://h/50").isEmpty)
        let fileSize = try #require(
            try FileManager.default.attributesOfItem(atPath: folder.file("c.sqlite").path)[.size] as? Int)
        #expect(fileSize < 4 * limit, "the file itself stays near the limit: \(fileSize) bytes")
    }

    @Test func refusesAnEntryBiggerThanAQuarterOfTheLimit() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let store = try SQLiteStore(fileURL: folder.file("c.sqlite"), sizeLimit: 40_000)
        store.store(makeEntry(url: "http://h/small", body: body(1, size: 1_000)))
        store.store(makeEntry(url: "http://h/huge", body: body(2, size: 20_000)))
        #expect(store.responses(for: "http://h/huge").isEmpty)
        #expect(store.responses(for: "http://h/small").count == 1)
    }

    @Test func filesAreReadableByTheOwnerOnly() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let file = folder.url.appendingPathComponent("nested/errand/c.sqlite")
        let store = try SQLiteStore(fileURL: file, sizeLimit: 1_000_000)
        store.store(makeEntry(url: "http://h/a"))
        for path in [file.path, file.path + "-wal", file.path + "-shm"] {
            let attributes = try FileManager.default.attributesOfItem(atPath: path)
            let mode = try #require(attributes[.posixPermissions] as? Int)
            #expect(mode & 0o077 == 0, "\(path) has mode \(String(mode, radix: 8))")
        }
        let folderMode =
            try FileManager.default.attributesOfItem(atPath: file.deletingLastPathComponent().path)[.posixPermissions]
            as? Int
        #expect(folderMode == 0o700)
    }

    @Test func aFileThatIsNotADatabaseIsRefusedAndKept() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let file = folder.file("c.sqlite")
        let bytes = Data((0..<65_536).map { UInt8(truncatingIfNeeded: $0 &* 7) })
        try bytes.write(to: file)
        #expect(throws: CacheStorageError.self) { _ = try SQLiteStore(fileURL: file, sizeLimit: 1_000_000) }
        #expect(try Data(contentsOf: file) == bytes)
    }

    @Test("a damaged file is detected and recovered", arguments: ["truncated", "overwritten", "header"])
    func recoversADamagedFile(damage: String) throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let file = folder.file("c.sqlite")
        do {
            let store = try SQLiteStore(fileURL: file, sizeLimit: 10_000_000)
            for index in 0..<200 { store.store(makeEntry(url: "http://h/\(index)", body: body(index, size: 4_000))) }
        }  // closing checkpoints the WAL into the main file
        let handle = try FileHandle(forUpdating: file)
        let size = try handle.seekToEnd()
        switch damage {
        case "truncated":
            try handle.truncate(atOffset: size / 3)
        case "overwritten":
            try handle.seek(toOffset: size / 2)
            handle.write(Data(repeating: 0xA5, count: 64 * 1024))
        default:
            try handle.seek(toOffset: 0)
            handle.write(Data(repeating: 0, count: 100))
        }
        try handle.close()

        if damage == "header" {
            // Without its header the file is not recognisably the cache's: it is refused, never overwritten.
            let before = try Data(contentsOf: file)
            #expect(throws: CacheStorageError.self) { _ = try SQLiteStore(fileURL: file, sizeLimit: 10_000_000) }
            #expect(try Data(contentsOf: file) == before)
            return
        }
        let store = try SQLiteStore(fileURL: file, sizeLimit: 10_000_000)
        // Whatever survived reads back intact; what did not is a miss, never a crash or a wrong body.
        for index in 0..<200 {
            if let entry = store.responses(for: "http://h/\(index)").first {
                #expect(entry.body == body(index, size: 4_000))
            }
        }
        #expect(store.entryCount < 200, "the damage was noticed")
        store.store(makeEntry(url: "http://h/new", body: body(7, size: 100)))
        #expect(store.responses(for: "http://h/new").first?.body == body(7, size: 100))
    }

    @Test func eightTasksReadingAndWritingConcurrentlyLoseNothing() async throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let file = folder.file("c.sqlite")
        let store = try SQLiteStore(fileURL: file, sizeLimit: 100_000_000)
        let perTask = 60
        await withTaskGroup(of: Void.self) { group in
            for task in 0..<8 {
                group.addTask {
                    for index in 0..<perTask {
                        store.store(
                            makeEntry(
                                url: "http://h/\(task)/\(index)", body: self.body(task * 1_000 + index, size: 2_000)))
                        // Read what another task may be writing right now, and our own last write.
                        _ = store.responses(for: "http://h/\((task + 1) % 8)/\(index)")
                        #expect(store.responses(for: "http://h/\(task)/\(index)").count == 1)
                    }
                }
            }
        }
        #expect(store.entryCount == 8 * perTask)
        let reopened = try SQLiteStore(fileURL: file, sizeLimit: 100_000_000)
        for task in 0..<8 {
            for index in 0..<perTask {
                #expect(
                    reopened.responses(for: "http://h/\(task)/\(index)").first?.body
                        == body(task * 1_000 + index, size: 2_000))
            }
        }
    }

    @Test func aWriterKilledMidTransactionLeavesAUsableCache() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let file = folder.file("c.sqlite")
        do {
            let store = try SQLiteStore(fileURL: file, sizeLimit: 100_000_000)
            store.store(makeEntry(url: "http://h/before", body: body(1, size: 100)))
        }
        // Another process writes batches of 40 rows per transaction, announcing each BEGIN; it is killed with
        // SIGKILL right after announcing one, while that transaction is being written.
        let writer = ChildProcess()
        writer.executableURL = URL(fileURLWithPath: "/usr/bin/python3")
        writer.arguments = ["-c", Self.killedWriter, file.path]
        let output = Pipe()
        writer.standardOutput = output
        try writer.run()
        var seen = ""
        while !seen.contains("begin 5\n") {
            let chunk = output.fileHandleForReading.availableData
            if chunk.isEmpty { break }
            seen += String(decoding: chunk, as: UTF8.self)
        }
        kill(writer.processIdentifier, SIGKILL)
        writer.waitUntilExit()
        #expect(seen.contains("begin 5\n"), "the writer got going: \(seen)")
        #expect(writer.terminationReason == .uncaughtSignal)

        let store = try SQLiteStore(fileURL: file, sizeLimit: 100_000_000)
        #expect(store.responses(for: "http://h/before").first?.body == body(1, size: 100))
        // Only whole transactions survive: the row count is the one earlier row plus whole batches of 40.
        let count = store.entryCount
        #expect(count >= 1 + 4 * 40 && (count - 1) % 40 == 0, "\(count) rows")
        store.store(makeEntry(url: "http://h/after", body: body(2, size: 100)))
        #expect(store.responses(for: "http://h/after").first?.body == body(2, size: 100))
    }

    /// Writes rows into the store's schema in a loop, 40 per transaction, printing `begin N` as each starts.
    private static let killedWriter = """
        import os, sqlite3, sys, time
        db = sqlite3.connect(sys.argv[1], isolation_level=None)
        db.execute("PRAGMA journal_mode=WAL")
        db.execute("PRAGMA synchronous=NORMAL")
        body = os.urandom(20000)
        n = 0
        while True:
            n += 1
            db.execute("BEGIN IMMEDIATE")
            sys.stdout.write(f"begin {n}\\n"); sys.stdout.flush()
            for i in range(40):
                key = f"http://h/py/{n}/{i}"
                db.execute(
                    "INSERT INTO entries (key, grp, variant, status, headers, body, request_time, response_time, size, accessed)"
                    " VALUES (?, ?, '', 200, ?, ?, ?, ?, ?, ?)",
                    (key, key, b"Content-Type:application/json\\n", body, time.time(), time.time(), len(body), n))
            db.execute("COMMIT")
        """
}
