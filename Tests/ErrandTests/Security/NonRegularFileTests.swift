@testable import Errand
import Foundation
import TestSupport
import Testing

#if canImport(Glibc)
import Glibc
#endif

/// A FIFO, a device or a folder where a file is expected: refused at once, never waited on.
@Suite("Non-regular files")
struct NonRegularFileTests {
    /// A temporary folder with a FIFO in it, removed afterwards.
    final class Place {
        let folder: URL
        let fifo: URL

        init() throws {
            folder = FileManager.default.temporaryDirectory.appendingPathComponent("errand-fifo-\(UUID().uuidString)")
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
            fifo = folder.appendingPathComponent("pipe")
            guard mkfifo(fifo.path, 0o600) == 0 else { throw POSIXError(.EPERM) }
        }

        deinit { try? FileManager.default.removeItem(at: folder) }
    }

    static func refusal(_ path: String, flags: Int32) -> RegularFile.Refusal? {
        do {
            let (descriptor, _) = try RegularFile.open(path, flags: flags, mode: 0o600)
            close(descriptor)
            return nil
        } catch {
            return error
        }
    }

    @Test("a FIFO is refused for reading and for writing, with and without a process at its other end")
    func fifo() throws {
        let place = try Place()
        let notRegular = RegularFile.Refusal.Kind.notRegular
        #expect(Self.refusal(place.fifo.path, flags: O_RDONLY)?.kind == notRegular)
        // Nobody reads: opening for writing without O_NONBLOCK would wait forever; with it, ENXIO, named for what it is.
        #expect(Self.refusal(place.fifo.path, flags: O_WRONLY | O_CREAT | O_NOFOLLOW)?.kind == notRegular)
        let reader = open(place.fifo.path, O_RDONLY | O_NONBLOCK)
        #expect(reader >= 0)
        defer { close(reader) }
        let refused = Self.refusal(place.fifo.path, flags: O_WRONLY | O_CREAT | O_TRUNC)
        #expect(refused?.kind == notRegular)
        #expect(refused?.reason == "is not a regular file, so its size cannot be known")
    }

    @Test("a device, a folder and a missing file are refused; a regular file opens measured and blocking")
    func kinds() throws {
        let place = try Place()
        #expect(Self.refusal("/dev/null", flags: O_RDONLY)?.kind == .notRegular)
        #expect(Self.refusal("/dev/zero", flags: O_WRONLY)?.kind == .notRegular)
        #expect(Self.refusal(place.folder.path, flags: O_RDONLY)?.kind == .folder)
        #expect(Self.refusal(place.folder.appendingPathComponent("none").path, flags: O_RDONLY)?.kind == .missing)
        let file = place.folder.appendingPathComponent("file")
        try Data(repeating: 1, count: 1234).write(to: file)
        let (descriptor, size) = try RegularFile.open(file.path, flags: O_RDONLY)
        defer { close(descriptor) }
        #expect(size == 1234)
        #expect(fcntl(descriptor, F_GETFL) & O_NONBLOCK == 0)
        #expect(fcntl(descriptor, F_GETFD) & FD_CLOEXEC != 0)
    }

    @Test(
        "a .file body that is a FIFO fails at once, naming it, sends nothing, and the transport goes on serving",
        .enabled(if: TestServer.upload.isUsable), arguments: TransportKind.allCases)
    func fifoBody(kind: TransportKind) async throws {
        let place = try Place()
        let server = try HostileServer(head: ["HTTP/1.1 200 OK", "Content-Length: 0"])
        let transport = kind.make()
        let request = TransportRequest(
            method: .post, url: server.url("/fifo"), body: .file(place.fifo), timeouts: Timeouts(total: .seconds(30)))
        let error = await #expect(throws: ErrandError.self) { try await transport.send(request) }
        guard case .invalidRequest(let message)? = error else {
            Issue.record("expected invalidRequest, got \(String(describing: error))")
            return
        }
        #expect(message == "the body file \(place.fifo.path) is not a regular file, so its size cannot be known.")
        #expect(server.requestHeads.isEmpty)
        // Streamed too (downloads and event streams take this path).
        await #expect(throws: ErrandError.self) { try await transport.stream(request) }
        // Nothing of the transport waits on the FIFO: the next upload goes through.
        let file = place.folder.appendingPathComponent("body.bin")
        try Data(repeating: 0x41, count: 100_000).write(to: file)
        let echo = TransportRequest(
            method: .post, url: try TestServer.upload.url().appendingPathComponent("echo"), body: .file(file),
            timeouts: Timeouts(total: .seconds(30)))
        let response = try await transport.send(echo)
        #expect(response.status == 200)
        let answer = try JSONSerialization.jsonObject(with: response.body) as? [String: Any]
        #expect(answer?["body_size"] as? Int == 100_000)
    }

    @Test(
        "a download whose partial file is a FIFO fails at once, naming it, and leaves the destination alone",
        .enabled(if: TestServer.nginxHTTP.isUsable), arguments: TransportKind.allCases)
    func fifoPartial(kind: TransportKind) async throws {
        let served = try DownloadTests.Served(size: 100_000)
        let place = try Place()
        let destination = place.folder.appendingPathComponent("file.bin")
        let partial = DownloadFile(destination: destination).partial
        #expect(mkfifo(partial.path, 0o600) == 0)
        let client = APIClient(
            configuration: ClientConfiguration(baseURL: try TestServer.nginxHTTP.url(), transport: kind.make()))
        let error = await #expect(throws: ErrandError.self) {
            try await client.download(Request(url: try served.url(), timeout: .seconds(30)), to: destination)
        }
        #expect(String(describing: error).contains("\(partial.path) is not a regular file"))
        #expect(!FileManager.default.fileExists(atPath: destination.path))
    }

    @Test(
        "a resumed download whose record is a FIFO is not held up by it: the download starts over and completes",
        .enabled(if: TestServer.nginxHTTP.isUsable), arguments: TransportKind.allCases)
    func fifoRecord(kind: TransportKind) async throws {
        let served = try DownloadTests.Served(size: 100_000)
        let place = try Place()
        let destination = place.folder.appendingPathComponent("file.bin")
        let files = DownloadFile(destination: destination)
        try Data(repeating: 9, count: 1000).write(to: files.partial)
        #expect(mkfifo(files.record.path, 0o600) == 0)
        let client = APIClient(
            configuration: ClientConfiguration(baseURL: try TestServer.nginxHTTP.url(), transport: kind.make()))
        let download = try await client.download(
            Request(url: try served.url(), timeout: .seconds(30)), to: destination, resume: true)
        #expect(!download.resumed)
        #expect(try Data(contentsOf: destination) == served.contents)
    }
}
