@testable import Errand
import Foundation
import Testing
import TestSupport

/// Two downloads to one destination: the partial file is locked by the first, so a second fails at once and clearly,
/// and whatever succeeds leaves a complete file of one response, never bytes of two.
@Suite("Downloads: one destination, one download at a time", .enabled(if: TestServer.fault.isUsable))
struct DownloadDestinationTests {
    func destination() throws -> URL {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("errand-one-destination-\(UUID())")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        return folder.appendingPathComponent("file.bin")
    }

    /// Whether `error` is the refusal of a download whose destination another download holds.
    static func isBusy(_ error: any Error, destination: URL) -> Bool {
        guard case .transport(let failure) = error as? ErrandError else { return false }
        return failure.underlying.contains("another download to \(destination.path) is in progress")
    }

    @Test(
        "while one download holds the destination, a second fails at once, naming it, and the first is untouched",
        arguments: TransportKind.allCases)
    func secondFailsClearly(kind: TransportKind) async throws {
        let holder = try FaultScenario(kind)
        let second = try FaultScenario(kind)
        let destination = try destination()
        try Data("the old file".utf8).write(to: destination)
        // The server sends the head and then nothing: the first download holds the partial file, waiting.
        let held = Task {
            try await holder.client(timeout: .seconds(60)).download(
                Request(path: holder.path("stall"), query: [QueryItem("seconds", "60")]), to: destination)
        }
        #expect(await waitUntil { (try? await holder.log().count) == 1 })
        let request = Request<Data>(path: second.path("versioned-file"), query: [QueryItem("cut", "100000")])
        let error = await #expect(throws: ErrandError.self) {
            try await second.client().download(request, to: destination)
        }
        #expect(error.map { Self.isBusy($0, destination: destination) } == true)
        if case .transport(let failure)? = error {
            #expect(failure.url?.path.hasSuffix(second.path("versioned-file")) == true)
        }
        // Refused before it sent anything, and before it touched the file.
        #expect(try await second.log().isEmpty)
        #expect(try Data(contentsOf: destination) == Data("the old file".utf8))
        held.cancel()
        _ = await held.result
        // The lock went with the first download: the next one runs and completes the file.
        let download = try await second.client().download(
            Request<Data>(path: second.path("versioned-file"), query: [QueryItem("cut", "100000")]), to: destination)
        #expect(download.bytes == 100_000)
        #expect(try Data(contentsOf: destination) == Data((0..<100_000).map { UInt8($0 % 251) }))
    }

    @Test(
        "downloads to one destination started together: each success leaves one response's file whole",
        arguments: TransportKind.allCases)
    func racingDownloads(kind: TransportKind) async throws {
        let size = 1 << 20
        let version1 = Data((0..<size).map { UInt8($0 % 251) })
        let version2 = Data((0..<size).map { UInt8($0 % 251) ^ 0x5A })
        for _ in 0..<4 {
            let scenario = try FaultScenario(kind)
            let destination = try destination()
            // The key's first request gets version 1 whole (cut at its end), every later one version 2.
            let request = Request<Data>(
                path: scenario.path("versioned-file"),
                query: [QueryItem("size", "\(size)"), QueryItem("cut", "\(size)")])
            let client = scenario.client()
            async let first = Result { try await client.download(request, to: destination) }
            async let second = Result { try await client.download(request, to: destination) }
            let outcomes = await [first, second]
            var succeeded = 0
            for outcome in outcomes {
                switch outcome {
                case .success(let download):
                    succeeded += 1
                    #expect(download.bytes == Int64(size))
                case .failure(let error):
                    #expect(Self.isBusy(error, destination: destination), "\(error)")
                }
            }
            #expect(succeeded >= 1)
            let file = try Data(contentsOf: destination)
            #expect(file == version1 || file == version2, "a mixed file of \(file.count) bytes")
            let hidden = DownloadFile(destination: destination)
            #expect(!FileManager.default.fileExists(atPath: hidden.partial.path))
            #expect(!FileManager.default.fileExists(atPath: hidden.record.path))
        }
    }
}

extension Result where Failure == any Error {
    /// The outcome of an async throwing body.
    init(catching body: () async throws -> Success) async {
        do {
            self = .success(try await body())
        } catch {
            self = .failure(error)
        }
    }
}
