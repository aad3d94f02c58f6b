import Errand
import Foundation
import TestSupport
import Testing

#if canImport(Glibc)
import Glibc
#endif

/// A recording is as untrusted as the network: a replayed answer meets the body limit and the checks a received
/// response meets, and a recording file is read in bounded memory or refused with a sentence.
@Suite("HAR replay: the limits of live traffic")
struct HARReplayLimitsTests {
    static let base = URL(string: "https://api.example.com/v1")!

    private func client(_ har: HAR, limit: Int = ClientConfiguration.defaultMaxResponseBodySize) -> APIClient {
        APIClient(
            configuration: ClientConfiguration(
                baseURL: Self.base, transport: HARReplayTransport(har), maxResponseBodySize: limit))
    }

    private func har(status: Int = 200, headers: [HAR.Pair] = [], content: HAR.Content) -> HAR {
        HARReplayTests.har([
            HAR.Entry(
                startedDateTime: "2026-01-02T03:04:05.678Z", time: 1,
                request: HAR.Request(method: "GET", url: "https://api.example.com/v1/a", headers: [], bodySize: 0),
                response: HAR.Response(
                    status: status, statusText: "", headers: headers, content: content, bodySize: content.size),
                timings: HAR.Timings(send: 0, wait: 1, receive: 0))
        ])
    }

    @Test(
        "a recorded body over the limit fails with the limit's sentence, as text and as base64",
        arguments: [false, true])
    func oversizedEntry(base64: Bool) async throws {
        let body = Data(repeating: UInt8(ascii: "a"), count: 6_000_000)
        let content =
            base64
            ? HAR.Content(
                size: body.count, mimeType: "text/plain", text: body.base64EncodedString(), encoding: "base64")
            : HAR.Content(size: body.count, mimeType: "text/plain", text: String(decoding: body, as: UTF8.self))
        let api = client(har(content: content), limit: 4_000_000)
        do {
            _ = try await api.send(Request<Data>(path: "a"))
            Issue.record("a 6 MB recorded body was returned under a 4 MB limit")
        } catch {
            guard case .bodyTooLarge(let limit) = error else {
                Issue.record("\(error)")
                return
            }
            #expect(limit == 4_000_000)
            #expect(error.userMessage == ErrandError.bodyTooLarge(limit: 4_000_000).userMessage)
            #expect(error.userMessage.contains("larger than the limit of 4 MB"), "\(error.userMessage)")
        }
        // Within the limit the same entry answers.
        let generous = client(har(content: content), limit: 8_000_000)
        #expect(try await generous.send(Request<Data>(path: "a")).value == body)
    }

    @Test(
        "a recorded header with CR LF, a NUL or a bad name never reaches the caller as a header",
        arguments: [
            HAR.Pair(name: "ETag", value: "\"x\"\r\nX-Injected: yes"),
            HAR.Pair(name: "ETag", value: "a\nX-Injected: yes"),
            HAR.Pair(name: "ETag", value: "a\u{0}b"),
            HAR.Pair(name: "X-Injected: yes\r\nETag", value: "a"),
            HAR.Pair(name: "", value: "a"),
        ])
    func headerInjection(_ field: HAR.Pair) async throws {
        let api = client(har(headers: [field], content: HAR.Content(size: 2, mimeType: "text/plain", text: "ok")))
        do {
            let response = try await api.send(Request<Data>(path: "a"))
            Issue.record("answered with \(response.headers)")
        } catch {
            guard case .transport(let failure) = error, failure.kind == .badResponse else {
                Issue.record("\(error)")
                return
            }
            #expect(failure.underlying.contains("entry 1"), "\(failure)")
        }
    }

    @Test("a recorded status outside 100-599 is a bad response", arguments: [99, 600, 1_000, Int.max])
    func statusOutOfRange(_ status: Int) async throws {
        let api = client(har(status: status, content: HAR.Content(size: 2, mimeType: "text/plain", text: "ok")))
        await #expect {
            _ = try await api.send(Request<Data>(path: "a"))
        } throws: { error in
            guard case .transport(let failure) = error as? ErrandError else { return false }
            return failure.kind == .badResponse
        }
    }

    @Test("a recording larger than the file limit is refused by its size, before it is read, in bounded memory")
    func oversizedRecordingInBoundedMemory() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("har-limits-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let file = folder.appendingPathComponent("huge.har")
        // 1 GB as the file system reports it: reading it whole would need gigabytes.
        #expect(FileManager.default.createFile(atPath: file.path, contents: nil))
        let handle = try FileHandle(forWritingTo: file)
        try handle.truncate(atOffset: 1_000_000_000)
        try handle.close()
        let before = Self.resetPeakMemory()
        do {
            _ = try HARReplayTransport(file: file)
            Issue.record("a 1 GB recording was accepted")
        } catch let error as HARFileError {
            #expect(error.isTooLarge)
            #expect(error.description.contains(file.path) && error.description.contains("limit"), "\(error)")
        }
        if let before, let peak = Self.peakMemory() {
            #expect(peak - before < 16 << 20, "memory grew by \((peak - before) >> 20) MiB")
        }
    }

    @Test("the file limit is the caller's to set, and a file within it is read")
    func fileLimit() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("har-limits-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let file = folder.appendingPathComponent("small.har")
        let data = try JSONEncoder().encode(
            har(content: HAR.Content(size: 2, mimeType: "text/plain", text: "ok")))
        try data.write(to: file)
        #expect(try HAR(contentsOf: file, maxFileSize: data.count).log.entries.count == 1)
        #expect(throws: HARFileError.self) { _ = try HAR(contentsOf: file, maxFileSize: data.count - 1) }
    }

    /// Resets the process's peak resident size to its current one (Linux's `clear_refs`), and returns that size.
    private static func resetPeakMemory() -> Int? {
        try? "5".write(toFile: "/proc/self/clear_refs", atomically: false, encoding: .utf8)
        return memory("VmRSS:")
    }

    private static func peakMemory() -> Int? { memory("VmHWM:") }

    private static func memory(_ field: String) -> Int? {
        guard let status = try? String(contentsOfFile: "/proc/self/status", encoding: .utf8) else { return nil }
        for line in status.split(separator: "\n") where line.hasPrefix(field) {
            return line.split(separator: " ").dropFirst().first.flatMap { Int($0) }.map { $0 * 1024 }
        }
        return nil
    }
}
