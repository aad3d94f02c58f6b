@testable import Errand
import Foundation
import Synchronization
import TestSupport
import Testing

/// Downloads to a file against nginx (ranges, ETags; `/slow-downloads/` rate-limited, `/no-ranges/` ignoring Range),
/// over every transport. The served files are written at test time under `$SERVERS_STATE/www/downloads/`.
@Suite("Downloads to a file", .enabled(if: TestServer.nginxHTTP.isUsable))
struct DownloadTests {
    /// A file nginx serves, written for one test.
    struct Served {
        let name: String
        let path: URL
        let contents: Data

        init(size: Int, name: String = "file-\(UUID()).bin") throws {
            let state = try #require(
                TestServer.environment("SERVERS_STATE"), "SERVERS_STATE is not set: run scripts/test")
            self.name = name
            path = URL(fileURLWithPath: state).appendingPathComponent("www/downloads/\(name)")
            contents = DownloadTests.randomData(size)
            try FileManager.default.createDirectory(
                at: path.deletingLastPathComponent(), withIntermediateDirectories: true)
            try contents.write(to: path)
        }

        func url(_ route: String = "downloads") throws -> URL {
            try TestServer.nginxHTTP.url().appendingPathComponent("\(route)/\(name)")
        }
    }

    static func randomData(_ size: Int) -> Data {
        var generator = SystemRandomNumberGenerator()
        var data = Data(count: size)
        data.withUnsafeMutableBytes { buffer in
            let words = buffer.bindMemory(to: UInt8.self)
            var index = 0
            while index < words.count {
                var value = generator.next()
                for _ in 0..<8 where index < words.count {
                    words[index] = UInt8(truncatingIfNeeded: value)
                    value >>= 8
                    index += 1
                }
            }
        }
        return data
    }

    static func folder() throws -> URL {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("errand-downloads-\(UUID())")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        return folder
    }

    func client(_ kind: TransportKind) throws -> APIClient {
        var configuration = ClientConfiguration(baseURL: try TestServer.nginxHTTP.url(), transport: kind.make())
        configuration.timeout = .seconds(20)
        return APIClient(configuration: configuration)
    }

    /// The strong ETag nginx sends for a file.
    func etag(_ client: APIClient, _ url: URL) async throws -> DownloadStateMachine.Validator {
        let head = try await client.send(Request<Void>(method: .head, url: url))
        return try #require(
            DownloadStateMachine.Validator.of(etag: head.headers["ETag"], lastModified: nil, date: nil))
    }

    /// Leaves a partial file beside `destination` as an interrupted download of a `length`-byte file would.
    func leavePartial(
        _ bytes: Data, validator: DownloadStateMachine.Validator, length: Int, url: URL, destination: URL
    ) throws {
        let file = DownloadFile(destination: destination)
        try bytes.write(to: file.partial)
        try file.saveRecord(
            DownloadFile.Record(
                validator: validator, length: Int64(length), url: url.absoluteString,
                name: destination.lastPathComponent))
    }

    @Test(
        "a whole file arrives byte for byte, with progress that never goes back and ends at the total",
        arguments: TransportKind.allCases)
    func wholeFile(kind: TransportKind) async throws {
        let served = try Served(size: 3 << 20)
        let destination = try Self.folder().appendingPathComponent("file.bin")
        let client = try client(kind)
        let progress = TransferProgressStream(interval: .milliseconds(1))
        async let finished = client.download(Request(url: try served.url()), to: destination, progress: progress)
        var updates: [TransferProgress] = []
        for await update in progress { updates.append(update) }
        let download = try await finished
        #expect(download.status == 200)
        #expect(download.bytes == Int64(served.contents.count))
        #expect(!download.resumed)
        #expect(download.fileURL == destination)
        #expect(try Data(contentsOf: destination) == served.contents)
        #expect(updates.last?.bytesReceived == Int64(served.contents.count))
        #expect(updates.last?.totalBytesToReceive == Int64(served.contents.count))
        #expect(zip(updates, updates.dropFirst()).allSatisfy { $0.bytesReceived <= $1.bytesReceived })
        // Partial file and record are gone.
        let file = DownloadFile(destination: destination)
        #expect(!FileManager.default.fileExists(atPath: file.partial.path))
        #expect(!FileManager.default.fileExists(atPath: file.record.path))
    }

    @Test("resume continues a partial file with a 206 and counts the kept bytes", arguments: TransportKind.allCases)
    func resumes(kind: TransportKind) async throws {
        let served = try Served(size: 2 << 20)
        let destination = try Self.folder().appendingPathComponent("file.bin")
        let client = try client(kind)
        let url = try served.url()
        try leavePartial(
            served.contents.prefix(700_000), validator: try await etag(client, url), length: served.contents.count,
            url: url, destination: destination)
        let progress = TransferProgressStream(interval: .milliseconds(1))
        async let finished = client.download(Request(url: url), to: destination, resume: true, progress: progress)
        var updates: [TransferProgress] = []
        for await update in progress { updates.append(update) }
        let download = try await finished
        #expect(download.status == 206)
        #expect(download.resumed)
        #expect(download.bytes == Int64(served.contents.count))
        #expect(try Data(contentsOf: destination) == served.contents)
        #expect((updates.first?.bytesReceived ?? 0) >= 700_000)
        #expect(updates.last?.bytesReceived == Int64(served.contents.count))
    }

    @Test(
        "a server that ignores Range sends 200 and the download restarts cleanly from zero",
        arguments: TransportKind.allCases)
    func serverIgnoresRange(kind: TransportKind) async throws {
        let served = try Served(size: 1 << 20)
        let destination = try Self.folder().appendingPathComponent("file.bin")
        let client = try client(kind)
        let url = try served.url("no-ranges")
        // Wrong bytes in the partial file: kept, they would corrupt the result.
        try leavePartial(
            Data(repeating: 0, count: 300_000), validator: try await etag(client, url), length: served.contents.count,
            url: url, destination: destination)
        let download = try await client.download(Request(url: url), to: destination, resume: true)
        #expect(download.status == 200)
        #expect(!download.resumed)
        #expect(try Data(contentsOf: destination) == served.contents)
    }

    @Test("a changed file (another ETag) is downloaded whole again", arguments: TransportKind.allCases)
    func changedETag(kind: TransportKind) async throws {
        let name = "changing-\(UUID()).bin"
        let old = try Served(size: 1 << 20, name: name)
        let destination = try Self.folder().appendingPathComponent("file.bin")
        let client = try client(kind)
        let url = try old.url()
        let oldTag = try await etag(client, url)
        try leavePartial(
            old.contents.prefix(400_000), validator: oldTag, length: old.contents.count, url: url,
            destination: destination)
        let new = try Served(size: (1 << 20) + 4096, name: name)
        #expect(try await etag(client, url) != oldTag)
        let download = try await client.download(Request(url: url), to: destination, resume: true)
        #expect(download.status == 200)
        #expect(!download.resumed)
        #expect(try Data(contentsOf: destination) == new.contents)
    }

    @Test("416 with the whole file already present completes it", arguments: TransportKind.allCases)
    func alreadyComplete(kind: TransportKind) async throws {
        let served = try Served(size: 500_000)
        let destination = try Self.folder().appendingPathComponent("file.bin")
        let client = try client(kind)
        let url = try served.url()
        try leavePartial(
            served.contents, validator: try await etag(client, url), length: served.contents.count, url: url,
            destination: destination)
        let download = try await client.download(Request(url: url), to: destination, resume: true)
        #expect(download.status == 416)
        #expect(download.resumed)
        #expect(download.bytes == 500_000)
        #expect(try Data(contentsOf: destination) == served.contents)
    }

    @Test(
        "cancellation leaves the destination as it was and the partial file for a resume",
        arguments: TransportKind.allCases)
    func cancellation(kind: TransportKind) async throws {
        let served = try Served(size: 8 << 20)
        let destination = try Self.folder().appendingPathComponent("file.bin")
        try Data("the old file".utf8).write(to: destination)
        let client = try client(kind)
        let url = try served.url("slow-downloads")
        let progress = TransferProgressStream(interval: .milliseconds(1))
        let task = Task { try await client.download(Request(url: url), to: destination, progress: progress) }
        for await update in progress where update.bytesReceived >= 512 * 1024 { break }
        task.cancel()
        let outcome = await task.result
        guard case .failure(let error) = outcome, case .cancelled? = error as? ErrandError else {
            Issue.record("expected cancelled, got \(outcome)")
            return
        }
        #expect(try Data(contentsOf: destination) == Data("the old file".utf8))
        let partial = DownloadFile(destination: destination).existingPartial(for: url)
        #expect((partial?.size ?? 0) >= 512 * 1024)
        #expect((partial?.size ?? .max) < Int64(served.contents.count))
        // And it resumes to the right file, at full speed.
        var unlimited = Request<Data>(url: url)
        unlimited.headers["X-Limit-Rate"] = "0"
        let download = try await client.download(unlimited, to: destination, resume: true)
        #expect(download.resumed)
        #expect(try Data(contentsOf: destination) == served.contents)
    }

    @Test("a body cut short fails, leaving the destination as it was", arguments: TransportKind.allCases)
    func truncatedBody(kind: TransportKind) async throws {
        guard TestServer.fault.isUsable else { return }
        let destination = try Self.folder().appendingPathComponent("file.bin")
        try Data("before".utf8).write(to: destination)
        let client = try client(kind)
        let url = try TestServer.fault.url().appendingPathComponent("close-mid-body/download-\(UUID())")
        await #expect(throws: ErrandError.self) {
            try await client.download(Request(url: url), to: destination)
        }
        #expect(try Data(contentsOf: destination) == Data("before".utf8))
    }

    @Test("a 404 fails with its status and creates no destination", arguments: TransportKind.allCases)
    func missing(kind: TransportKind) async throws {
        let destination = try Self.folder().appendingPathComponent("file.bin")
        let client = try client(kind)
        let error = await #expect(throws: ErrandError.self) {
            try await client.download(Request(path: "downloads/missing-\(UUID()).bin"), to: destination)
        }
        guard case .unacceptableStatus(let failure)? = error else {
            Issue.record("expected unacceptableStatus, got \(String(describing: error))")
            return
        }
        #expect(failure.status == 404)
        #expect(!FileManager.default.fileExists(atPath: destination.path))
    }

    @Test(
        "a killed process leaves the destination untouched, and resuming gives the same bytes",
        .enabled(if: DownloadChild.isBuilt), arguments: TransportKind.allCases)
    func killedProcess(kind: TransportKind) async throws {
        let served = try Served(size: 12 << 20)
        let destination = try Self.folder().appendingPathComponent("file.bin")
        try Data("previous version".utf8).write(to: destination)
        let url = try served.url("slow-downloads")
        let child = try DownloadChild(url: url, destination: destination, kind: kind)
        let reached = try await child.waitForBytes(atLeast: 1 << 20)
        await child.kill()
        #expect(reached >= 1 << 20)
        #expect(try Data(contentsOf: destination) == Data("previous version".utf8))
        let partial = try #require(DownloadFile(destination: destination).existingPartial(for: url))
        #expect(partial.size > 0 && partial.size < Int64(served.contents.count))
        var unlimited = Request<Data>(url: url)
        unlimited.headers["X-Limit-Rate"] = "0"
        let download = try await client(kind).download(unlimited, to: destination, resume: true)
        #expect(download.resumed)
        #expect(download.status == 206)
        #expect(try Data(contentsOf: destination) == served.contents)
    }
}

extension DownloadTests {
    @Test(
        "another process's download holds the destination: this one fails at once; once it is killed, this one resumes",
        .enabled(if: DownloadChild.isBuilt), arguments: TransportKind.allCases)
    func destinationHeldByAnotherProcess(kind: TransportKind) async throws {
        let served = try Served(size: 12 << 20)
        let destination = try Self.folder().appendingPathComponent("file.bin")
        let url = try served.url("slow-downloads")
        let child = try DownloadChild(url: url, destination: destination, kind: kind)
        #expect(try await child.waitForBytes(atLeast: 512 * 1024) >= 512 * 1024)
        var unlimited = Request<Data>(url: url)
        unlimited.headers["X-Limit-Rate"] = "0"
        let error = await #expect(throws: ErrandError.self) {
            try await client(kind).download(unlimited, to: destination, resume: true)
        }
        #expect(error.map { DownloadDestinationTests.isBusy($0, destination: destination) } == true)
        // The kernel lets the lock go with the killed process; what it wrote is resumed.
        await child.kill()
        let download = try await client(kind).download(unlimited, to: destination, resume: true)
        #expect(download.resumed)
        #expect(try Data(contentsOf: destination) == served.contents)
    }
}

/// `errand-download` (Tests/Helpers/errand-download) running as a child process.
final class DownloadChild: Sendable {
    /// The helper beside the test bundle, as `swift build --build-tests` leaves it.
    static var executable: URL {
        URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent().appendingPathComponent(
            "errand-download")
    }

    static var isBuilt: Bool {
        if FileManager.default.isExecutableFile(atPath: executable.path) || TestServer.isCI { return true }
        print("skipping: \(executable.path) is not built")
        return false
    }

    private let process: ChildProcess
    private let lines: AsyncStream<String>
    private let exited: AsyncStream<Void>

    init(url: URL, destination: URL, kind: TransportKind) throws {
        process = ChildProcess()
        process.executableURL = Self.executable
        // 512 KB/s: the test kills the child after a MiB, seconds before it could finish even on a loaded machine.
        process.arguments = [
            url.absoluteString, destination.path, "--transport", kind == .urlSession ? "urlsession" : "curl", "--rate",
            "512k",
        ]
        let output = Pipe()
        process.standardOutput = output
        let (lines, continuation) = AsyncStream.makeStream(of: String.self)
        self.lines = lines
        let buffer = Mutex(Data())
        output.fileHandleForReading.readabilityHandler = { handle in
            let data = handle.availableData
            if data.isEmpty {
                handle.readabilityHandler = nil
                continuation.finish()
                return
            }
            let complete: [String] = buffer.withLock { pending in
                pending.append(data)
                var found: [String] = []
                while let newline = pending.firstIndex(of: 0x0A) {
                    found.append(String(decoding: pending[..<newline], as: UTF8.self))
                    pending.removeSubrange(...newline)
                }
                return found
            }
            for line in complete { continuation.yield(line) }
        }
        let (exited, exit) = AsyncStream.makeStream(of: Void.self)
        self.exited = exited
        process.terminationHandler = { _ in exit.finish() }
        try process.run()
    }

    /// Waits until the child reports at least `count` bytes received; returns what it reported.
    func waitForBytes(atLeast count: Int64) async throws -> Int64 {
        for await line in lines {
            if line.hasPrefix("received "), let value = Int64(line.dropFirst(9)), value >= count { return value }
            if line.hasPrefix("done") || line.hasPrefix("failed") {
                Issue.record("the child ended before being killed: \(line)")
                return 0
            }
        }
        return 0
    }

    /// Kills the child with SIGKILL (no chance to clean up) and waits until it is gone.
    func kill() async {
        _ = Foundation.kill(process.processIdentifier, SIGKILL)
        for await _ in exited {}
    }
}
