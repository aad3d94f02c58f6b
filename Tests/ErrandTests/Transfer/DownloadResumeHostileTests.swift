@testable import Errand
import Foundation
import Testing
import TestSupport

/// Resumes against a file that changes between requests (the fault server's `/versioned-file/`), on both transports:
/// whatever the server does, the destination is one version's bytes, whole, and `resumed` is true only when the
/// kept bytes were proved to be of the version that completed them.
@Suite("Downloads: resumes against a changing file", .enabled(if: TestServer.fault.isUsable))
struct DownloadResumeHostileTests {
    static let size = 1_048_576
    static let cut = 300_000

    /// Version 1 of the route's file, `count` bytes.
    static func version1(_ count: Int = size) -> Data { Data((0..<count).map { UInt8($0 % 251) }) }
    /// Version 2: no byte equals version 1's at the same offset.
    static func version2(_ count: Int = size) -> Data { Data((0..<count).map { UInt8($0 % 251) ^ 0x5A }) }

    /// The request of the route with these parameters (size and cut added).
    func request(_ scenario: FaultScenario, _ parameters: [String: String]) -> Request<Data> {
        let query = ["size": "\(Self.size)", "cut": "\(Self.cut)"].merging(parameters) { $1 }
        return Request(
            path: scenario.path("versioned-file"),
            query: query.sorted { $0.key < $1.key }.map { QueryItem($0.key, $0.value) })
    }

    func destination() throws -> URL {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("errand-versions-\(UUID())")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        return folder.appendingPathComponent("file.bin")
    }

    /// A first download that the server cuts after `cut` bytes of version 1, leaving the partial file.
    func interrupted(_ client: APIClient, _ request: Request<Data>, to destination: URL) async throws {
        await #expect(throws: ErrandError.self) { try await client.download(request, to: destination) }
        #expect(!FileManager.default.fileExists(atPath: destination.path))
        let partial = DownloadFile(destination: destination).partial
        let kept = try Data(contentsOf: partial)
        #expect(kept.count > 0 && kept == Self.version1().prefix(kept.count))
    }

    @Test(
        "another ETag in the 206 (a server that ignores If-Range) restarts from zero: version 2 whole",
        arguments: TransportKind.allCases)
    func etagChanges(kind: TransportKind) async throws {
        let scenario = try FaultScenario(kind)
        let client = scenario.client()
        let request = request(scenario, ["etag2": "\"v2\"", "if_range": "ignore"])
        let destination = try destination()
        try await interrupted(client, request, to: destination)
        let download = try await client.download(request, to: destination, resume: true)
        #expect(!download.resumed)
        #expect(download.status == 200)
        #expect(try Data(contentsOf: destination) == Self.version2())
        let log = try await scenario.log()
        #expect(log.count == 3)
        #expect(log[1].header("If-Range") == "\"v1\"")
        #expect(log[1].header("Range")?.hasPrefix("bytes=") == true)
        #expect(log[2].header("Range") == nil)
    }

    @Test(
        "a connection lost mid-body and resumed by the retry policy into another version restarts from zero",
        arguments: TransportKind.allCases)
    func etagChangesWithinOneDownload(kind: TransportKind) async throws {
        let scenario = try FaultScenario(kind)
        let policy = RetryPolicy(maxAttempts: 3, baseDelay: .milliseconds(1), maxDelay: .milliseconds(1), jitter: .none)
        let client = scenario.client([RetryMiddleware(policy: policy)])
        let destination = try destination()
        let download = try await client.download(
            request(scenario, ["etag2": "\"v2\"", "if_range": "ignore"]), to: destination)
        #expect(!download.resumed)
        #expect(try Data(contentsOf: destination) == Self.version2())
        let log = try await scenario.log()
        #expect(log.map { $0.header("Range") == nil } == [true, false, true])
    }

    @Test(
        "a total that changes under the same ETag restarts from zero: the new length's file whole",
        arguments: TransportKind.allCases)
    func totalChanges(kind: TransportKind) async throws {
        let scenario = try FaultScenario(kind)
        let client = scenario.client()
        let request = request(scenario, ["size2": "\(2 * Self.size)"])
        let destination = try destination()
        try await interrupted(client, request, to: destination)
        let download = try await client.download(request, to: destination, resume: true)
        #expect(!download.resumed)
        #expect(download.bytes == Int64(2 * Self.size))
        #expect(try Data(contentsOf: destination) == Self.version2(2 * Self.size))
        #expect(try await scenario.log().map { $0.header("Range") == nil } == [true, false, true])
    }

    @Test(
        "a weak ETag is never resumed by, not even by its Last-Modified: the partial file is started over",
        arguments: TransportKind.allCases)
    func weakETag(kind: TransportKind) async throws {
        let scenario = try FaultScenario(kind)
        let client = scenario.client()
        // The server would honour the range whatever If-Range names, and serve version 2's bytes.
        let request = request(
            scenario, ["etag": "W/\"v1\"", "if_range": "ignore", "lm": "1700000000", "skew": "3600"])
        let destination = try destination()
        try await interrupted(client, request, to: destination)
        let download = try await client.download(request, to: destination, resume: true)
        #expect(!download.resumed)
        #expect(try Data(contentsOf: destination) == Self.version2())
        let log = try await scenario.log()
        #expect(log.count == 2)
        #expect(log.last?.header("Range") == nil)
        #expect(log.last?.header("If-Range") == nil)
    }

    @Test(
        "a Last-Modified date no older than the response's Date is not a strong validator: no resume",
        arguments: TransportKind.allCases)
    func weakLastModified(kind: TransportKind) async throws {
        let scenario = try FaultScenario(kind)
        let client = scenario.client()
        let request = request(scenario, ["etag": "none", "if_range": "ignore", "lm": "1700000000", "skew": "0"])
        let destination = try destination()
        try await interrupted(client, request, to: destination)
        let download = try await client.download(request, to: destination, resume: true)
        #expect(!download.resumed)
        #expect(try Data(contentsOf: destination) == Self.version2())
        #expect(try await scenario.log().last?.header("Range") == nil)
    }

    @Test(
        "a Last-Modified date a second or more before Date is strong: the resume continues the same version",
        arguments: TransportKind.allCases)
    func strongLastModified(kind: TransportKind) async throws {
        let scenario = try FaultScenario(kind)
        let client = scenario.client()
        let request = request(scenario, ["etag": "none", "same": "1", "lm": "1700000000", "skew": "2"])
        let destination = try destination()
        try await interrupted(client, request, to: destination)
        let download = try await client.download(request, to: destination, resume: true)
        #expect(download.resumed)
        #expect(download.status == 206)
        #expect(try Data(contentsOf: destination) == Self.version1())
        let log = try await scenario.log()
        #expect(log.last?.header("If-Range") == "Tue, 14 Nov 2023 22:13:20 GMT")
    }

    @Test(
        "a 416 naming a total other than the record's does not complete a partial file: the file is fetched whole",
        arguments: TransportKind.allCases)
    func misleading416(kind: TransportKind) async throws {
        let scenario = try FaultScenario(kind)
        let client = scenario.client()
        let request = request(scenario, ["same": "1", "answer416": "\(Self.cut)"])
        let destination = try destination()
        try await interrupted(client, request, to: destination)
        let download = try await client.download(request, to: destination, resume: true)
        #expect(!download.resumed)
        #expect(download.status == 200)
        #expect(try Data(contentsOf: destination) == Self.version1())
        #expect(try await scenario.log().map { $0.header("Range") == nil } == [true, false, true])
    }

    @Test(
        "a 206 without any validator is not trusted: the file is fetched whole", arguments: TransportKind.allCases)
    func validatorDropped(kind: TransportKind) async throws {
        let scenario = try FaultScenario(kind)
        let client = scenario.client()
        let request = request(scenario, ["etag2": "none", "if_range": "ignore"])
        let destination = try destination()
        try await interrupted(client, request, to: destination)
        let download = try await client.download(request, to: destination, resume: true)
        #expect(!download.resumed)
        #expect(try Data(contentsOf: destination) == Self.version2())
    }
}
