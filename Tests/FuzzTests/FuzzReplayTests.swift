import Foundation
import FuzzChecks
import Testing

/// Every seed of the fuzz corpora and every input that once broke a promise (Fuzz/Regressions), through the same
/// checks the fuzzers run: a crash fixed once stays fixed.
@Suite struct FuzzReplayTests {
    private static let fuzzFolder = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("Fuzz")

    private static func inputs(_ kind: String, _ target: FuzzTarget) -> [URL] {
        let folder = fuzzFolder.appendingPathComponent(kind).appendingPathComponent(target.rawValue)
        let names = (try? FileManager.default.contentsOfDirectory(atPath: folder.path)) ?? []
        return names.sorted().map { folder.appendingPathComponent($0) }
    }

    /// Runs a target's check on a thread of its own, as libFuzzer does: a check may wait for async work (the HAR
    /// target replays through a client), and that wait must not hold one of the cooperative pool's threads, which
    /// the work itself needs (two such waits took both of a two-core machine's and hung the suite).
    private static func check(_ target: FuzzTarget, _ file: URL) async throws -> Violations {
        let bytes = Array(try Data(contentsOf: file))
        return await withCheckedContinuation { continuation in
            Thread { continuation.resume(returning: target.check(FuzzInput(bytes))) }.start()
        }
    }

    @Test(arguments: FuzzTarget.allCases)
    func seedsKeepEveryPromise(_ target: FuzzTarget) async throws {
        let seeds = Self.inputs("Corpus", target)
        #expect(!seeds.isEmpty, "no seeds for \(target.rawValue)")
        for file in seeds {
            let violations = try await Self.check(target, file)
            #expect(violations.isEmpty, "\(file.lastPathComponent): \(violations)")
        }
    }

    @Test(arguments: FuzzTarget.allCases)
    func crashInputsStayFixed(_ target: FuzzTarget) async throws {
        for file in Self.inputs("Regressions", target) {
            let violations = try await Self.check(target, file)
            #expect(violations.isEmpty, "\(file.lastPathComponent): \(violations)")
        }
    }
}
