import Foundation
import Testing
import TestSupport

/// Numbers on the command line are checked before anything is sent: a usage error (exit 2) naming the range, never a
/// trap.
@Suite("Numeric options are range-checked", .enabled(if: TestServer.replica.isUsable))
struct NumericOptionTests {
    @Test(
        "met search --rate outside 0.01…1000 exits 2 with the range",
        arguments: ["1e20", "1e-20", "0", "-3", "nan", "inf", "2000"])
    func rate(value: String) async throws {
        let tool = try ToolProcess("met")
        let outcome = try await tool.run(["search", "sunflowers", "--rate", value, "--base-url", try Replica.root()])
        #expect(outcome.status == 2, "\(outcome)")
        #expect(
            outcome.stderr.hasPrefix("met: error: --rate expects a number from 0.01 to 1000, not '\(value)'"),
            "\(outcome)")
        #expect(outcome.stdout.isEmpty)
    }

    @Test("--timeout beyond a day names the limit", arguments: ["1e9", "86401", "0", "-1"])
    func timeout(value: String) async throws {
        let tool = try ToolProcess("mealdb")
        let outcome = try await tool.run(["areas", "--timeout", value, "--base-url", try Replica.root()])
        #expect(outcome.status == 2, "\(outcome)")
        #expect(outcome.stderr.contains("at most 86400 (a day)"), "\(outcome)")
    }

    @Test("a rate inside the range runs")
    func goodRate() async throws {
        let tool = try ToolProcess("met")
        let outcome = try await tool.run([
            "search", "sunflowers", "--limit", "3", "--rate", "500", "--json", "--base-url", try Replica.root(),
        ])
        #expect(outcome.status == 0, "\(outcome)")
    }
}
