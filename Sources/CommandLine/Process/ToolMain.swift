import Foundation

/// What a command's code receives: the parsed invocation, the console and the environment.
public struct CommandContext: Sendable {
    /// The parsed command line.
    public let invocation: Invocation
    /// Where output goes.
    public let console: Console
    /// The process environment (tests pass their own).
    public let environment: [String: String]

    /// Creates a context.
    public init(invocation: Invocation, console: Console, environment: [String: String]) {
        self.invocation = invocation
        self.console = console
        self.environment = environment
    }

    /// Whether `--json` was given: one JSON document on stdout, nothing else there.
    public var wantsJSON: Bool { invocation.flag("json") }
    /// Whether `--verbose` was given.
    public var isVerbose: Bool { invocation.flag("verbose") }
}

/// The shared `main` of the tools: parse, answer `--help`/`--version`, run the command, report failures as one
/// sentence on stderr and exit with the failure's ``ExitCode``.
public enum ToolMain {
    /// Runs the tool and exits the process. SIGINT exits with 130.
    /// - Parameter classify: maps errors of the tool's own libraries to failures; `nil` falls back to
    ///   ``Failure/classify(_:)``.
    public static func run(
        _ tool: Tool,
        classify: @escaping @Sendable (any Error) -> Failure? = { _ in nil },
        body: @escaping @Sendable (CommandContext) async throws -> Void
    ) async -> Never {
        let environment = ProcessInfo.processInfo.environment
        let console = Console(toolName: tool.name, terminal: .current(environment: environment))
        OutputStream.ignoreBrokenPipes()
        Interruption.install(console: console)
        var code = await execute(
            tool, arguments: Array(Swift.CommandLine.arguments.dropFirst()), environment: environment,
            console: console, classify: classify, body: body)
        // Output that did not arrive is a failure even when the work succeeded: a full disk must not look like a
        // result. Said on stderr (if that still works), with the general failure status.
        if let failure = OutputStream.standardOutput.failure {
            console.error(failure)
            if code == .success { code = .failure }
        }
        exit(code.rawValue)
    }

    /// Runs the tool with explicit arguments, environment and console, and returns the exit code (for tests).
    public static func execute(
        _ tool: Tool, arguments: [String], environment: [String: String], console: Console,
        classify: @Sendable (any Error) -> Failure? = { _ in nil },
        body: @Sendable (CommandContext) async throws -> Void
    ) async -> ExitCode {
        let outcome: ParseOutcome
        do {
            outcome = try tool.parse(arguments, width: console.terminal.width)
        } catch {
            console.error(error.description)
            return .usage
        }
        switch outcome {
        case .help(let text):
            console.print(text)
            return .success
        case .version(let line):
            console.print(line)
            return .success
        case .run(let invocation):
            let context = CommandContext(invocation: invocation, console: console, environment: environment)
            do {
                try await body(context)
                return .success
            } catch {
                let failure = classify(error) ?? Failure.classify(error)
                console.error(failure.message)
                if context.isVerbose, let detail = failure.detail, detail != failure.message {
                    console.diagnostic(console.errorStyle.dim(detail))
                }
                return failure.exitCode
            }
        }
    }
}
