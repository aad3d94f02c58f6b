import Foundation
import TestSupport
import Testing

/// The real `mealdb` and `met` binaries, given credentials in arguments and variables that do not parse: every usage
/// error that echoes the input masks whatever could be a user name or password, in any form it is written.
@Suite("Tools: no credentials in echoed input")
struct EchoedCredentialCLITests {
    /// The parts of the credentials below, none of which may appear in what the tools print.
    static let parts = ["alice-9917", "PRO", "SECRET", "4410"]

    /// A tool, its arguments and extra environment, each echoing credentials in another place.
    static let runs: [(tool: String, arguments: [String], environment: [String: String])] = [
        ("mealdb", ["search", "pasta", "--proxy", "alice-9917:PRO://SECRET-4410@127.0.0.1:3128"], [:]),
        ("met", ["search", "tea", "--proxy", "alice-9917:PRO://SECRET-4410@127.0.0.1:3128"], [:]),
        ("met", ["search", "tea", "--proxy", "ftp://alice-9917:PRO-SECRET-4410@127.0.0.1:21"], [:]),
        ("mealdb", ["search", "pasta"], ["http_proxy": "alice-9917:PRO://SECRET-4410@127.0.0.1:3128"]),
        ("met", ["search", "tea"], ["https_proxy": "gopher://alice-9917:PRO%40SECRET-4410@127.0.0.1:70"]),
        ("mealdb", ["search", "pasta", "--base-url", "alice-9917:PRO-SECRET-4410@127.0.0.1:8080"], [:]),
        ("met", ["search", "tea"], ["MET_BASE_URL": "https://alice-9917:PRO/SECRET-4410@museum.test"]),
        ("met", ["search", "tea", "--base-url", "//alice-9917:PRO-SECRET-4410@museum.test"], [:]),
        ("mealdb", ["search", "pasta", "https://alice-9917:PRO-SECRET-4410@extra.test/x"], [:]),
        ("mealdb", ["alice-9917:PRO-SECRET-4410@command.test"], [:]),
        ("met", ["search", "tea", "--timeout", "alice-9917%3APRO%3ASECRET-4410%40timeout.test"], [:]),
        ("mealdb", ["letter", "alice-9917:PRO-SECRET-4410@letter.test"], [:]),
        ("met", ["objects", "--since", "//alice-9917:PRO-SECRET-4410@since.test"], [:]),
    ]

    @Test("every echo of a bad argument or variable masks the credentials in it", arguments: runs)
    func masked(tool: String, arguments: [String], environment: [String: String]) async throws {
        let outcome = try await ToolProcess(tool).run(arguments, environment: environment)
        #expect(outcome.status == 2, "\(outcome)")
        #expect(outcome.stderr.contains("***@") || outcome.stderr.contains("***%40"), "the input is echoed: \(outcome)")
        for part in Self.parts {
            #expect(!outcome.stderr.contains(part) && !outcome.stdout.contains(part), "\(part) shown: \(outcome)")
        }
    }
}
