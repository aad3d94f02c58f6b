@testable import Errand
import Foundation
import Testing

/// The wire form of multipart bodies and the reader's failures, without a socket.
@Suite("Multipart bodies")
struct MultipartTests {
    /// A folder of files for one test, removed when the test ends.
    final class Folder {
        let url: URL

        init() throws {
            url = FileManager.default.temporaryDirectory.appendingPathComponent("errand-multipart-\(UUID().uuidString)")
            try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        }

        deinit { try? FileManager.default.removeItem(at: url) }

        func file(_ name: String, _ contents: Data) throws -> URL {
            let file = url.appendingPathComponent(name)
            try contents.write(to: file)
            return file
        }
    }

    /// One read of `reader` into `buffer`.
    static func read(_ reader: MultipartReader, _ buffer: inout [UInt8]) throws -> Int {
        try buffer.withUnsafeMutableBytes { bytes in try reader.read(into: bytes) }
    }

    /// Everything a reader hands out, read `piece` bytes at a time.
    static func readAll(_ reader: MultipartReader, piece: Int = 64 * 1024) throws -> Data {
        var data = Data()
        var buffer = [UInt8](repeating: 0, count: piece)
        while true {
            let count = try read(reader, &buffer)
            if count == 0 { return data }
            data.append(contentsOf: buffer[..<count])
        }
    }

    /// The error a reading or opening of `body` ends with, and the bytes handed out before it.
    static func failure(of body: MultipartBody) -> (message: String?, sent: Data) {
        var sent = Data()
        do {
            let reader = try MultipartReader.open(body)
            var buffer = [UInt8](repeating: 0, count: 4096)
            while true {
                let count = try read(reader, &buffer)
                if count == 0 { return (nil, sent) }
                sent.append(contentsOf: buffer[..<count])
            }
        } catch {
            guard case .invalidRequest(let message) = error as? ErrandError else {
                return ("unexpected \(error)", sent)
            }
            return (message, sent)
        }
    }

    @Test("the wire form is RFC 7578's, with the length known up front")
    func wireForm() throws {
        let folder = try Folder()
        let file = try folder.file("notes.txt", Data("file\r\nbody".utf8))
        let body = MultipartBody(
            parts: [
                .field(name: "title", value: "Lunch"),
                .data(name: "blob", data: Data([0, 1, 2]), filename: "b.bin"),
                .file(name: "doc", url: file, contentType: "text/plain"),
            ], boundary: "BOUNDARY")
        let expected = """
            --BOUNDARY\r
            Content-Disposition: form-data; name="title"\r
            \r
            Lunch\r
            --BOUNDARY\r
            Content-Disposition: form-data; name="blob"; filename="b.bin"\r
            Content-Type: application/octet-stream\r
            \r
            \u{0}\u{1}\u{2}\r
            --BOUNDARY\r
            Content-Disposition: form-data; name="doc"; filename="notes.txt"\r
            Content-Type: text/plain\r
            \r
            file\r
            body\r
            --BOUNDARY--\r

            """
        let reader = try MultipartReader.open(body)
        #expect(reader.contentLength == expected.utf8.count)
        let whole = try Self.readAll(reader)
        #expect(whole == Data(expected.utf8))
        #expect(reader.isFinished)
        // Read a byte at a time, the same bytes come out.
        #expect(try Self.readAll(try MultipartReader.open(body), piece: 1) == whole)
        #expect(
            try Self.readAll(try MultipartReader.open(MultipartBody(parts: [], boundary: "B")))
                == Data("--B--\r\n".utf8))
    }

    @Test("names and filenames are quoted with quote, CR and LF escaped, and non-ASCII kept as UTF-8")
    func escaping() throws {
        let part = MultipartPart.data(name: "a\"b\r\nc", data: Data(), filename: "Crème \"brûlée\"\n日本.txt")
        let block = String(decoding: part.headerBlock, as: UTF8.self)
        #expect(
            block.hasPrefix(
                "Content-Disposition: form-data; name=\"a%22b%0D%0Ac\"; filename=\"Crème %22brûlée%22%0A日本.txt\"\r\n"))
        #expect(MultipartPart.escaped("back\\slash;semi") == "back\\slash;semi")
    }

    @Test("a fresh boundary is random, well-formed and absent from the parts")
    func boundary() {
        let first = MultipartBody(parts: [.field(name: "a", value: "b")])
        let second = MultipartBody(parts: [.field(name: "a", value: "b")])
        #expect(first.boundary != second.boundary)
        #expect(first.boundary.hasPrefix("errand-") && first.boundary.count == 39)
        #expect(first.problem == nil)
        #expect(first.contentType == "multipart/form-data; boundary=\(first.boundary)")
        #expect(RequestBody.multipart([]).contentType?.hasPrefix("multipart/form-data; boundary=errand-") == true)
    }

    @Test("a part's content type with a line break, a bad boundary and a non-file URL are refused")
    func refusedParts() {
        let injected = MultipartBody(
            parts: [.data(name: "x", data: Data(), contentType: "text/plain\r\nX-Evil: 1")], boundary: "B")
        #expect(injected.problem?.contains("line break") == true)
        #expect(MultipartBody(parts: [], boundary: "has space").problem != nil)
        #expect(MultipartBody(parts: [], boundary: String(repeating: "a", count: 71)).problem != nil)
        let remote = MultipartBody(parts: [.file(name: "f", url: URL(string: "https://example.com/a")!)], boundary: "B")
        #expect(remote.problem?.contains("not a file URL") == true)
        #expect(Self.failure(of: injected).message?.contains("line break") == true)
    }

    @Test("a missing file, a folder and a pipe fail when the body is opened, naming the file")
    func missingFile() throws {
        let folder = try Folder()
        let missing = folder.url.appendingPathComponent("nope.bin")
        let gone = Self.failure(of: MultipartBody(parts: [.file(name: "f", url: missing)], boundary: "B"))
        #expect(gone.message == "the multipart file \(missing.path) does not exist.")
        #expect(gone.sent.isEmpty)
        let asFolder = Self.failure(of: MultipartBody(parts: [.file(name: "f", url: folder.url)], boundary: "B"))
        #expect(asFolder.message == "the multipart file \(folder.url.path) is a folder.")
        // A pipe nobody writes to: refused at once, without waiting for a writer.
        let pipe = folder.url.appendingPathComponent("pipe")
        #expect(mkfifo(pipe.path, 0o600) == 0)
        let asPipe = Self.failure(of: MultipartBody(parts: [.file(name: "f", url: pipe)], boundary: "B"))
        #expect(asPipe.message == "the multipart file \(pipe.path) is not a regular file, so its size cannot be known.")
    }

    #if os(Linux)
    @Test("a file that opens but cannot be read stops the body with the system's reason")
    func unreadableFile() {
        // A regular file of size 0 whose every read fails (EIO): what a failing disk looks like to the reader.
        let broken = URL(fileURLWithPath: "/proc/self/mem")
        let outcome = Self.failure(of: MultipartBody(parts: [.file(name: "f", url: broken)], boundary: "B"))
        #expect(outcome.message == "the multipart file /proc/self/mem could not be read (Input/output error).")
    }
    #endif

    @Test("a file that shrinks or grows after it was measured stops the body")
    func changingFile() throws {
        let folder = try Folder()
        let file = try folder.file("data.bin", Data(repeating: 7, count: 100_000))
        let body = MultipartBody(parts: [.file(name: "f", url: file)], boundary: "B")

        let shrinking = try MultipartReader.open(body)
        try Data(repeating: 7, count: 10).write(to: file)
        #expect(throws: ErrandError.self) { try Self.readAll(shrinking) }
        do {
            _ = try Self.readAll(try MultipartReader.open(body))
        } catch {
            Issue.record("a file measured after it changed must read: \(error)")
        }

        let growing = try MultipartReader.open(body)
        let handle = try FileHandle(forWritingTo: file)
        try handle.seekToEnd()
        try handle.write(contentsOf: Data(repeating: 8, count: 5))
        try handle.close()
        do {
            _ = try Self.readAll(growing)
            Issue.record("a file that grew must stop the body")
        } catch {
            guard case .invalidRequest(let message) = error as? ErrandError else {
                Issue.record("\(error)")
                return
            }
            #expect(message.contains("changed size during the upload: it grew past the 10 bytes"))
        }
    }

    @Test("the boundary search finds what a plain search finds, at every position")
    func boundarySearch() {
        var generator = SystemRandomNumberGenerator()
        let needle = Array("--ab-a".utf8)
        let search = BoundarySearch(needle)
        for _ in 0..<300 {
            // A small alphabet makes near misses and overlaps common.
            let hay = (0..<Int.random(in: 0...40, using: &generator)).map { _ in
                "-ab".utf8.randomElement(using: &generator)!
            }
            let expected =
                hay.count >= needle.count
                && (0...(hay.count - needle.count)).contains { Array(hay[$0..<($0 + needle.count)]) == needle }
            #expect(hay.withUnsafeBytes(search.occurs(in:)) == expected, "\(String(decoding: hay, as: UTF8.self))")
        }
        let planted = Array(repeating: UInt8(ascii: "x"), count: 1000) + needle
        #expect(planted.withUnsafeBytes(search.occurs(in:)))
        #expect(!Array(planted.dropLast()).withUnsafeBytes(search.occurs(in:)))
    }

    @Test("a file containing the boundary stops the body before the boundary is handed out", arguments: [1, 3, 4096])
    func boundaryInFile(piece: Int) throws {
        let folder = try Folder()
        var contents = Data(repeating: 0x61, count: 10_000)
        contents.append(Data("--SEP".utf8))
        contents.append(Data(repeating: 0x62, count: 100))
        let file = try folder.file("clash.bin", contents)
        let body = MultipartBody(parts: [.file(name: "f", url: file)], boundary: "SEP")
        let reader = try MultipartReader.open(body)
        var sent = Data()
        var buffer = [UInt8](repeating: 0, count: piece)
        var failure: ErrandError?
        do {
            while true {
                let count = try Self.read(reader, &buffer)
                if count == 0 { break }
                sent.append(contentsOf: buffer[..<count])
            }
        } catch {
            failure = error as? ErrandError
        }
        guard case .invalidRequest(let message) = failure else {
            Issue.record("no failure: \(String(describing: failure))")
            return
        }
        #expect(message.contains("contains the body's boundary"))
        // Only the part's own opening delimiter is out; the file's copy of it never is.
        let delimiter = Data("--SEP".utf8)
        #expect(sent.range(of: delimiter, in: 5..<sent.count) == nil)
    }
}
