import Errand
import Foundation
import TestSupport
import Testing

/// The independent check `scripts/test` runs on every recording (Tests/HAR/validate_har.py: the HAR 1.2 schema and
/// haralyzer) can fail: it passes the hand-written browser export and a fresh recording, and rejects broken ones.
@Suite("HARValidation: the independent HAR check", .serialized, .enabled(if: HARCheckers.areInstalled))
struct HARValidationTests {
    static let python = URL(fileURLWithPath: "/usr/bin/python3")
    static let script = HARFiles.resources.appendingPathComponent("validate_har.py")

    func check(_ file: URL) async throws -> (status: Int32, output: String) {
        let process = ChildProcess()
        process.executableURL = Self.python
        process.arguments = [Self.script.path, file.path]
        let output = Pipe()
        process.standardOutput = output
        process.standardError = output
        let exited = AsyncStream<Int32>.makeStream()
        process.terminationHandler = { process in
            exited.continuation.yield(process.terminationStatus)
            exited.continuation.finish()
        }
        try process.run()
        let text = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        var status: Int32 = -1
        for await code in exited.stream { status = code }
        return (status, text)
    }

    /// A copy of the browser export, changed by `edit`, in a temporary file.
    func broken(_ edit: (inout [String: Any]) -> Void) throws -> URL {
        var document = try HARFiles.json(HARFiles.resources.appendingPathComponent("browser.har"))
        edit(&document)
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("broken-\(UUID().uuidString).har")
        try JSONSerialization.data(withJSONObject: document).write(to: file)
        return file
    }

    @Test("the browser export and an empty recording pass; a missing field and a negative time fail")
    func passesAndFails() async throws {
        let valid = try await check(HARFiles.resources.appendingPathComponent("browser.har"))
        #expect(valid.status == 0, "\(valid.output)")
        let empty = try HARFiles.make("empty-recording")
        _ = try HARRecorder(file: empty)
        let recorded = try await check(empty)
        #expect(recorded.status == 0, "\(recorded.output)")

        let noTime = try broken { document in
            var log = document["log"] as? [String: Any] ?? [:]
            var entries = log["entries"] as? [[String: Any]] ?? []
            entries[0]["time"] = nil
            var timings = entries[1]["timings"] as? [String: Any] ?? [:]
            timings["wait"] = -5
            entries[1]["timings"] = timings
            log["entries"] = entries
            document["log"] = log
        }
        let invalid = try await check(noTime)
        #expect(invalid.status == 1)
        #expect(invalid.output.contains("'time' is a required property"), "\(invalid.output)")
        #expect(invalid.output.contains("-5 is less than the minimum of 0"), "\(invalid.output)")
    }
}

/// Whether `scripts/test` runs this suite, having installed the checkers (always, in CI).
enum HARCheckers {
    static var areInstalled: Bool {
        if TestServer.isCI || ProcessInfo.processInfo.environment["ERRAND_HAR_DIR"] != nil { return true }
        print("skipping: run the tests with scripts/test, which installs the HAR checkers")
        return false
    }
}
