@testable import Errand
import Foundation
import Testing
import TestSupport

#if canImport(Glibc)
import Glibc
#endif

/// Downloads meeting real file-system conditions, on both transports: a destination name near NAME_MAX, a folder
/// that is not there, and a full disk (a 1 MiB tmpfs mounted for the test).
@Suite("Downloads: long names, missing folders, full disks", .enabled(if: TestServer.nginxHTTP.isUsable))
struct DownloadFileSystemTests {
    func client(_ kind: TransportKind) throws -> APIClient {
        var configuration = ClientConfiguration(baseURL: try TestServer.nginxHTTP.url(), transport: kind.make())
        configuration.timeout = .seconds(20)
        return APIClient(configuration: configuration)
    }

    @Test(
        "a 250-byte destination name downloads, and its hidden files fit in NAME_MAX", arguments: TransportKind.allCases
    )
    func longName(kind: TransportKind) async throws {
        let served = try DownloadTests.Served(size: 300_000)
        let name = String(repeating: "n", count: 246) + ".bin"
        let destination = try DownloadTests.folder().appendingPathComponent(name)
        let download = try await client(kind).download(Request(url: try served.url()), to: destination)
        #expect(download.bytes == 300_000)
        #expect(try Data(contentsOf: destination) == served.contents)
        let hidden = DownloadFile(destination: destination)
        #expect(hidden.partial.lastPathComponent.utf8.count <= 255)
        #expect(hidden.record.lastPathComponent.utf8.count <= 255)
        #expect(!FileManager.default.fileExists(atPath: hidden.partial.path))
    }

    @Test("a 250-byte destination name resumes from its shortened partial file", arguments: TransportKind.allCases)
    func longNameResumes(kind: TransportKind) async throws {
        guard TestServer.fault.isUsable else { return }
        let scenario = try FaultScenario(kind)
        let request = Request<Data>(
            path: scenario.path("flaky-file"), query: [QueryItem("size", "200000"), QueryItem("cut", "70000")])
        let name = String(repeating: "r", count: 246) + ".bin"
        let destination = try DownloadTests.folder().appendingPathComponent(name)
        await #expect(throws: ErrandError.self) { try await scenario.client().download(request, to: destination) }
        let kept = try Data(contentsOf: DownloadFile(destination: destination).partial)
        #expect(kept.count > 0)
        let download = try await scenario.client().download(request, to: destination, resume: true)
        #expect(download.resumed)
        #expect(try Data(contentsOf: destination) == Data((0..<200_000).map { UInt8($0 % 251) }))
    }

    @Test("a file-layer failure names the request's URL", arguments: TransportKind.allCases)
    func failureNamesTheURL(kind: TransportKind) async throws {
        let served = try DownloadTests.Served(size: 1_000)
        let url = try served.url()
        let destination = FileManager.default.temporaryDirectory.appendingPathComponent("errand-absent-\(UUID())/f.bin")
        let error = await #expect(throws: ErrandError.self) {
            try await client(kind).download(Request(url: url), to: destination)
        }
        guard case .transport(let failure)? = error else {
            Issue.record("expected a transport failure, got \(String(describing: error))")
            return
        }
        #expect(failure.url == url)
        #expect(error?.debugDescription.contains(url.absoluteString) == true)
        #expect(error?.debugDescription.contains("for ?") == false)
    }

    @Test(
        "a full disk fails naming the URL, removes the partial file, and the next download in the folder works",
        arguments: TransportKind.allCases)
    func fullDisk(kind: TransportKind) async throws {
        guard let disk = SmallDisk(bytes: 1 << 20) else { return }
        defer { disk.unmount() }
        let destination = disk.folder.appendingPathComponent("big.bin")
        try Data("the old file".utf8).write(to: destination)
        let big = try DownloadTests.Served(size: 2 << 20)
        let client = try client(kind)
        let error = await #expect(throws: ErrandError.self) {
            try await client.download(Request(url: try big.url()), to: destination)
        }
        guard case .transport(let failure)? = error else {
            Issue.record("expected a transport failure, got \(String(describing: error))")
            return
        }
        #expect(failure.url == (try big.url()))
        #expect(failure.underlying.contains(String(cString: strerror(ENOSPC))))
        #expect(failure.underlying.contains("the partial file was removed"))
        #expect(try Data(contentsOf: destination) == Data("the old file".utf8))
        let hidden = DownloadFile(destination: destination)
        #expect(!FileManager.default.fileExists(atPath: hidden.partial.path))
        #expect(!FileManager.default.fileExists(atPath: hidden.record.path))
        // The space is back: a smaller file in the same folder downloads.
        let small = try DownloadTests.Served(size: 400_000)
        let next = disk.folder.appendingPathComponent("small.bin")
        let download = try await client.download(Request(url: try small.url()), to: next)
        #expect(download.bytes == 400_000)
        #expect(try Data(contentsOf: next) == small.contents)
        // And the file that did not fit, resumed or not, fails the same way without leaving anything behind.
        await #expect(throws: ErrandError.self) {
            try await client.download(Request(url: try big.url()), to: destination, resume: true)
        }
        #expect(!FileManager.default.fileExists(atPath: hidden.partial.path))
    }
}

/// A tmpfs of a few bytes mounted on a fresh folder, for as long as a test needs a full disk.
struct SmallDisk {
    let folder: URL

    /// Mounts it; `nil` (with the reason printed) where mounting is refused, as it is to a user who is not root.
    init?(bytes: Int) {
        folder = FileManager.default.temporaryDirectory.appendingPathComponent("errand-small-disk-\(UUID())")
        do {
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        } catch {
            print("skipping: cannot create \(folder.path): \(error)")
            return nil
        }
        let mounted = mount("tmpfs", folder.path, "tmpfs", 0, "size=\(bytes)")
        guard mounted == 0 else {
            let reason = String(cString: strerror(errno))
            print("skipping: mount -t tmpfs -o size=\(bytes) was refused (\(reason)); a full disk needs it")
            try? FileManager.default.removeItem(at: folder)
            return nil
        }
    }

    func unmount() {
        _ = umount2(folder.path, Int32(MNT_DETACH))
        try? FileManager.default.removeItem(at: folder)
    }
}
