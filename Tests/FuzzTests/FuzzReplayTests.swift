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

    @Test(arguments: FuzzTarget.allCases)
    func seedsKeepEveryPromise(_ target: FuzzTarget) throws {
        let seeds = Self.inputs("Corpus", target)
        #expect(!seeds.isEmpty, "no seeds for \(target.rawValue)")
        for file in seeds {
            let violations = target.check(FuzzInput(Array(try Data(contentsOf: file))))
            #expect(violations.isEmpty, "\(file.lastPathComponent): \(violations)")
        }
    }

    @Test(arguments: FuzzTarget.allCases)
    func crashInputsStayFixed(_ target: FuzzTarget) throws {
        for file in Self.inputs("Regressions", target) {
            let violations = target.check(FuzzInput(Array(try Data(contentsOf: file))))
            #expect(violations.isEmpty, "\(file.lastPathComponent): \(violations)")
        }
    }
}
