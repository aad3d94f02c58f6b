import Foundation
import Testing
import TestSupport

/// `errand-bench` run as its help says it may be: without `--url`, it starts nginx through `scripts/bench --serve`.
///
/// That path needs nginx, which `scripts/test` has just started for the other tests: the nginx URL's presence says
/// the machine has it (in CI, where nothing may be skipped, the test runs regardless). The bench's environment has
/// none of the harness's nginx variables, so it cannot borrow the running server and must start its own.
@Suite("errand-bench on its own", .enabled(if: TestServer.nginxHTTP.isUsable))
struct BenchToolTests {
    @Test("without --url it starts nginx itself and finishes a small run")
    func startsItsOwnServer() async throws {
        // raw-libcurl is the one client that is not Errand; without libcurl (the iOS source set) there is none.
        guard ProcessInfo.processInfo.environment["ERRAND_NO_CURL"] != "1" else {
            print("skipping: errand-bench's raw-libcurl client needs libcurl, which ERRAND_NO_CURL=1 leaves out")
            return
        }
        let environment = ProcessInfo.processInfo.environment.filter { key, _ in
            !key.hasPrefix("ERRAND_NGINX_") && key != "ERRAND_TEST_CA" && key != "SERVERS_STATE"
        }
        let bench = try ToolProcess("errand-bench", environment: environment)
        let outcome = try await bench.run(
            [
                "--clients", "raw-libcurl", "--requests", "100", "--rounds", "1", "--concurrency", "1",
                "--schemes", "http", "--download-mib", "0",
            ], timeout: .seconds(300))
        #expect(outcome.status == 0, "\(outcome)")
        #expect(!outcome.stderr.contains("Could not connect"), "\(outcome)")
        // The table names the client it measured, so the run reached nginx rather than stopping before the first round.
        #expect(outcome.stdout.contains("raw libcurl") || outcome.stdout.contains("raw-libcurl"), "\(outcome)")
    }
}
