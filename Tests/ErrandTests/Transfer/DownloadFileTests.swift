@testable import Errand
import Foundation
import Testing

#if canImport(Glibc)
import Glibc
#endif

/// The file layer of a download without a server: the hidden names, the lock on the partial file, the record.
@Suite("Downloads: the partial file and its lock")
struct DownloadFileTests {
    static func folder() throws -> URL {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("errand-download-file-\(UUID())")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        return folder
    }

    @Test("a name that fits keeps its readable hidden names")
    func shortNames() {
        let names = DownloadFileNames(destinationName: "ubuntu.iso")
        #expect(names.partial == ".ubuntu.iso.download")
        #expect(names.record == ".ubuntu.iso.download-info")
    }

    @Test(
        "a long name is shortened with a hash so that every hidden name fits in NAME_MAX",
        arguments: [237, 250, 255, 300])
    func longNames(length: Int) {
        let name = String(repeating: "a", count: length - 4) + ".bin"
        let names = DownloadFileNames(destinationName: name)
        for hidden in [names.partial, names.record, names.recordDraft] {
            #expect(hidden.utf8.count <= 255, "\(hidden.utf8.count) bytes")
        }
        #expect(names.partial.hasPrefix(".aaaa"))
        #expect(names.partial.hasSuffix(".download"))
        // Two names that differ only past the kept prefix still get names of their own.
        let other = DownloadFileNames(destinationName: String(repeating: "a", count: length - 4) + ".iso")
        #expect(other.partial != names.partial)
        #expect(other.record != names.record)
    }

    @Test("a long name of multi-byte characters is cut between characters")
    func longMultibyteName() {
        let name = String(repeating: "é", count: 125)  // 250 bytes
        let names = DownloadFileNames(destinationName: name)
        #expect(names.recordDraft.utf8.count <= 255)
        #expect(names.partial.hasPrefix(".éé"))
        #expect(String(validatingUTF8: names.partial) != nil)
    }

    @Test("a second lock on one destination fails at once and names the destination; after release it succeeds")
    func lockIsExclusive() throws {
        let destination = try Self.folder().appendingPathComponent("file.bin")
        let url = URL(string: "http://127.0.0.1:1/file.bin")!
        let first = DownloadFile(destination: destination, url: url)
        try first.lock()
        let second = DownloadFile(destination: destination, url: url)
        #expect {
            try second.lock()
        } throws: { error in
            guard case .transport(let failure) = error as? ErrandError else { return false }
            return failure.url == url && failure.underlying.contains("another download to \(destination.path)")
        }
        first.release()
        // Nothing was received, so the empty partial file went with the lock.
        #expect(!FileManager.default.fileExists(atPath: first.partial.path))
        try second.lock()
        second.release()
    }

    @Test("a partial file with bytes stays after release; a committed one is the destination")
    func releaseKeepsBytes() async throws {
        let destination = try Self.folder().appendingPathComponent("file.bin")
        let file = DownloadFile(destination: destination)
        try file.lock()
        try file.position(at: 0)
        try file.write(Data("half".utf8))
        file.release()
        #expect(try Data(contentsOf: file.partial) == Data("half".utf8))
        let again = DownloadFile(destination: destination)
        try again.lock()
        try again.position(at: 4)
        try again.write(Data(" and the rest".utf8))
        try await again.commit()
        again.release()
        #expect(try Data(contentsOf: destination) == Data("half and the rest".utf8))
        #expect(!FileManager.default.fileExists(atPath: again.partial.path))
    }

    @Test("a lock taken on a file that was then committed away is not a lock: the next download gets its own")
    func lockFollowsTheName() async throws {
        let destination = try Self.folder().appendingPathComponent("file.bin")
        let holder = DownloadFile(destination: destination)
        try holder.lock()
        try holder.position(at: 0)
        try holder.write(Data("v1".utf8))
        // Another download opened the partial file's name before the holder committed it onto the destination.
        let early = holder.partial.withUnsafeFileSystemRepresentation { open($0!, O_RDWR) }
        #expect(early >= 0)
        defer { close(early) }
        try await holder.commit()
        #expect(flock(early, LOCK_EX | LOCK_NB) == 0)  // the old file's lock is free now, but it is the destination
        let next = DownloadFile(destination: destination)
        try next.lock()
        try next.position(at: 0)
        try next.write(Data("v2".utf8))
        next.release()
        #expect(try Data(contentsOf: destination) == Data("v1".utf8))
        #expect(try Data(contentsOf: next.partial) == Data("v2".utf8))
    }

    @Test("a FIFO or a directory where the partial file goes is refused, not waited on")
    func notARegularFile() throws {
        let destination = try Self.folder().appendingPathComponent("file.bin")
        let file = DownloadFile(destination: destination)
        #expect(mkfifo(file.partial.path, 0o644) == 0)
        #expect(throws: ErrandError.self) { try file.lock() }
        try FileManager.default.removeItem(at: file.partial)
        try FileManager.default.createDirectory(at: file.partial, withIntermediateDirectories: false)
        #expect(throws: ErrandError.self) { try file.lock() }
    }

    @Test("a record is found again only for its URL and its destination's name")
    func recordMatches() throws {
        let destination = try Self.folder().appendingPathComponent("file.bin")
        let file = DownloadFile(destination: destination)
        let url = URL(string: "http://127.0.0.1:1/file.bin")!
        try Data("abc".utf8).write(to: file.partial)
        let validator = DownloadStateMachine.Validator(value: "\"v1\"", isETag: true)
        try file.saveRecord(.init(validator: validator, length: 9, url: url.absoluteString, name: "file.bin"))
        let found = try #require(file.existingPartial(for: url))
        #expect(found.size == 3)
        #expect(found.record.version == .init(validator: validator, length: 9))
        #expect(file.existingPartial(for: URL(string: "http://127.0.0.1:1/other.bin")!) == nil)
        try file.saveRecord(.init(validator: validator, length: 9, url: url.absoluteString, name: "other.bin"))
        #expect(file.existingPartial(for: url) == nil)
        // A record of the earlier format (no name) is not trusted: the download starts over.
        try Data(#"{"url":"http://127.0.0.1:1/file.bin","length":9}"#.utf8).write(to: file.record)
        #expect(file.existingPartial(for: url) == nil)
    }
}
