@testable import Errand
import Foundation
import TestSupport
import Testing

#if canImport(Glibc)
import Glibc
#endif

/// A `.file` body that changes while it is sent: its size went out as `Content-Length` (or was measured for the
/// stream), so the upload stops at once with the file named, instead of leaving the server waiting for the rest.
@Suite("File bodies that change mid-upload")
struct ChangingFileUploadTests {
    enum Change: String, CaseIterable, CustomStringConvertible {
        case shrinks
        case grows

        var description: String { rawValue }
    }

    /// The body's size: far more than the socket buffers hold, so most of it is still unread when the file changes
    /// (measured: curl had read 2.8 MB of it then, URLSession 0.6 MB), and small enough that the cases that send it
    /// all cost the parallel suite little.
    static let size = 16 << 20

    @Test(
        "a file that shrinks or grows while the server reads slowly stops the upload at once, naming the file",
        arguments: TransportKind.allCases, Change.allCases)
    func changes(kind: TransportKind, change: Change) async throws {
        let folder = try NonRegularFileTests.Place()
        let file = folder.folder.appendingPathComponent("upload.bin")
        #expect(FileManager.default.createFile(atPath: file.path, contents: nil))
        let handle = try FileHandle(forWritingTo: file)
        try handle.truncate(atOffset: UInt64(Self.size))
        try handle.close()
        let server = try HeldUploadServer()
        let progress = TransferProgressStream(interval: .zero)
        var options = RequestOptions()
        options.progress = progress
        let request = TransportRequest(
            method: .put, url: server.url("/upload"), body: .file(file), timeouts: Timeouts(total: .seconds(60)),
            options: options)
        let transport = kind.make()
        let upload = Task { try await transport.send(request) }
        await server.waitForRequest()
        // The first body bytes left: the file is being read.
        for await update in progress where update.bytesSent > 0 { break }
        switch change {
        case .shrinks:
            #expect(truncate(file.path, 1000) == 0)
        case .grows:
            let writer = try FileHandle(forWritingTo: file)
            try writer.seekToEnd()
            try writer.write(contentsOf: Data(repeating: 1, count: 10))
            try writer.close()
        }
        server.release()
        let outcome = await upload.result
        guard case .failure(let error) = outcome, case .invalidRequest(let message) = error as? ErrandError else {
            Issue.record("expected invalidRequest, got \(outcome)")
            return
        }
        #expect(message.hasPrefix("the body file \(file.path) changed size during the upload"))
        switch change {
        case .shrinks: #expect(message.hasSuffix("of its \(Self.size) bytes."))
        case .grows: #expect(message.contains("grew past the \(Self.size) bytes"))
        }
        // The client closed the connection without completing the body, so the server cannot take it for whole.
        let read = await server.waitForClose()
        #expect((read ?? Int.max) < Self.size)
    }

    @Test("a file read whole, byte for byte, without a change, ends and reports the end")
    func unchanged() throws {
        let folder = try NonRegularFileTests.Place()
        let file = folder.folder.appendingPathComponent("small.bin")
        let contents = Data((0..<10_000).map { UInt8(truncatingIfNeeded: $0) })
        try contents.write(to: file)
        let body = try BodyFile(file, role: "the body file")
        var read = Data()
        var buffer = [UInt8](repeating: 0, count: 4096)
        while true {
            let count = try buffer.withUnsafeMutableBytes { try body.read(into: $0) }
            if count == 0 { break }
            read.append(contentsOf: buffer[..<count])
        }
        #expect(read == contents)
        #expect(body.isFinished)
    }
}
