import Foundation
import Testing
import TestSupport

/// A loopback server that redirects off the machine: the tools refuse the hop before connecting. The server and the
/// tool run in a network namespace of their own (`unshare -n`), where nothing but loopback exists, so even a broken
/// rule could reach no address outside.
@Suite("Redirects off the machine, in a network namespace", .enabled(if: NetworkNamespace.isAvailable))
struct RedirectNamespaceTests {
    private struct Report: Decodable {
        var status: Int32
        var stdout: String
        var stderr: String
        var requests: [String]
    }

    private func run(redirectTo target: String, tool: String, _ arguments: [String]) async throws -> Report {
        let tools = try ToolProcess(tool)
        let script = Fixtures.packageRoot.appendingPathComponent("Tests/Servers/netns_redirect.py").path
        let runner = try ToolProcess(
            "unshare", executable: URL(fileURLWithPath: "/usr/bin/unshare"), environment: tools.environment)
        // As root, a network namespace alone; otherwise inside a user namespace of its own, which a chroot forbids.
        let flags = geteuid() == 0 ? "-n" : "-rn"
        let outcome = try await runner.run(
            [flags, "/usr/bin/python3", script, target, "--", tools.executable.path] + arguments + [
                "--base-url", "{base}",
            ])
        try #require(outcome.status == 0, "\(outcome)")
        return try JSONDecoder().decode(Report.self, from: Data(outcome.stdout.utf8))
    }

    @Test(
        "mealdb refuses a plain-http hop to the metadata address, a private address and a public one",
        arguments: [
            "http://169.254.169.254/latest/meta-data/", "http://10.0.0.1/internal", "http://example.com/x",
        ])
    func refused(target: String) async throws {
        let report = try await run(redirectTo: target, tool: "mealdb", ["areas", "--no-cache"])
        #expect(report.status == 4, "\(report.stderr)")
        #expect(report.stderr.contains("redirected to an insecure address"), "\(report.stderr)")
        #expect(report.requests == ["/api/json/v1/1/list.php?a=list"], "one request, and no retry of a refused hop")
    }
}

/// Whether this machine can give a test a network namespace of its own: `unshare` and Debian's Python. CI has both
/// (as root, `scripts/test` installs Python); a machine without them skips, saying why.
enum NetworkNamespace {
    static var isAvailable: Bool {
        let available =
            FileManager.default.isExecutableFile(atPath: "/usr/bin/unshare")
            && FileManager.default.isExecutableFile(atPath: "/usr/bin/python3")
        if !available && !TestServer.isCI {
            print("skipping: network namespace tests need /usr/bin/unshare and /usr/bin/python3")
        }
        return available || TestServer.isCI
    }
}
