import CommandLine
import Errand
import Foundation

/// The CLI argument parser's promises on arbitrary command lines: a usage error or an outcome, never a crash; only
/// declared options and flags in the outcome; and a server root the CLI accepts is one the client will use.
///
/// Input: the command-line words, NUL-separated.
enum CLIChecks {
    /// A tool shaped like `mealdb` and `met`: the shared network options, positionals, values, repeatables, flags.
    static let tool = Tool(
        name: "fuzz", version: "1.0.0", summary: "A tool with every kind of declaration.",
        options: NetworkOptions.options(baseURLVariable: "FUZZ_BASE_URL") + [.value("api-key", "KEY", help: "A key.")],
        commands: [
            Command(
                "search", summary: "Search.", positionals: [Positional("TEXT", help: "Text.")],
                options: [.value("html", "DIR", help: "A folder."), .repeatable("department", "ID", help: "An id.")]),
            Command(
                "show", summary: "Show.",
                positionals: [Positional("ID", help: "An id."), Positional("MORE", help: "More.", isOptional: true)]),
            Command(
                "objects", summary: "List.",
                options: [
                    .value("limit", "N", short: "n", help: "At most N."), .value("from", "N", help: "Start."),
                    .flag("highlights", short: "H", help: "Only highlights."),
                ]),
        ],
        epilogue: "Exit codes: 0 ok.")

    static func check(_ input: FuzzInput) -> Violations {
        let words = input.fields
        var violations: Violations = []
        do {
            switch try tool.parse(words, width: 60) {
            case .help(let text):
                if text.isEmpty { violations.append("empty help") }
            case .version(let line):
                if line != "fuzz 1.0.0" { violations.append("version line \(line)") }
            case .run(let invocation):
                violations += invocationViolations(invocation)
            }
        } catch {
            if error.problem.isEmpty { violations.append("a usage error without a problem") }
        }
        for word in words { violations += serverAddressViolations(word) }
        return violations
    }

    private static func invocationViolations(_ invocation: Invocation) -> Violations {
        let declared = tool.options + (invocation.command?.options ?? [])
        var violations: Violations = []
        for name in invocation.values.keys where !declared.contains(where: { $0.name == name }) {
            violations.append("value for undeclared option \(name)")
        }
        for name in invocation.flags where !declared.contains(where: { $0.name == name }) {
            violations.append("undeclared flag \(name)")
        }
        for positional in invocation.command?.positionals ?? [] where !positional.isOptional {
            if invocation.argument(positional.name) == nil { violations.append("missing required \(positional.name)") }
        }
        // Typed access answers or throws a usage error, whatever the text.
        for name in invocation.values.keys {
            _ = try? invocation.integer(name, in: 0...1_000)
            _ = try? invocation.integers(name)
            _ = try? invocation.seconds(name)
            _ = try? invocation.positiveDecimal(name, in: 0.01...1_000)
        }
        for positional in invocation.command?.positionals ?? [] { _ = try? invocation.integerArgument(positional.name) }
        return violations
    }

    /// A server root the CLI accepts is https, or http to loopback, with no credentials or path, and the client agrees
    /// to use it without being told to allow insecure HTTP.
    private static func serverAddressViolations(_ text: String) -> Violations {
        guard let url = try? ServerAddress.validate(text, source: "--base-url", helpCommand: "fuzz --help") else {
            return []
        }
        var violations: Violations = []
        if url.user != nil || url.password != nil { violations.append("\(text.debugDescription) kept credentials") }
        if !(url.path.isEmpty || url.path == "/") || url.query != nil {
            violations.append("\(text.debugDescription) kept a path or query")
        }
        let client = APIClient(configuration: ClientConfiguration(baseURL: url, transport: NoTransport()))
        do {
            _ = try client.makeTransportRequest(Request<Data>(path: "x"))
        } catch {
            violations.append(
                "the CLI accepts \(text.debugDescription) as \(url.absoluteString), the client refuses it: \(error.debugDescription)"
            )
        }
        return violations
    }
}

/// A transport that is never called: the check only builds requests.
private struct NoTransport: Transport {
    func send(_ request: TransportRequest) async throws -> TransportResponse {
        throw ErrandError.cancelled
    }
}
