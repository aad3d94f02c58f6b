import Foundation

/// A parsed command line: which command runs, with which arguments and options.
///
/// The typed accessors throw ``UsageError`` when a value is malformed, naming the option and what it expects.
public struct Invocation: Sendable, Hashable {
    /// The tool that was parsed.
    public let tool: Tool
    /// The command that runs (`nil` only for a tool without commands).
    public let command: Command?
    /// Positional arguments by their declared name.
    public let arguments: [String: String]
    /// Option values by option name, in the order given.
    public let values: [String: [String]]
    /// The flags that were given.
    public let flags: Set<String>

    /// Creates an invocation (the parser does this; tests of command code may too).
    public init(
        tool: Tool, command: Command?, arguments: [String: String] = [:], values: [String: [String]] = [:],
        flags: Set<String> = []
    ) {
        self.tool = tool
        self.command = command
        self.arguments = arguments
        self.values = values
        self.flags = flags
    }

    /// The command line whose `--help` explains this invocation: `mealdb search`.
    public var helpCommand: String {
        command.map { "\(tool.name) \($0.name)" } ?? tool.name
    }

    /// A usage error pointing to this invocation's help.
    public func usageError(_ problem: String) -> UsageError {
        UsageError(problem, helpCommand: helpCommand)
    }

    // MARK: Raw access

    /// Whether a flag was given.
    public func flag(_ name: String) -> Bool { flags.contains(name) }

    /// The value of an option (the last one when given twice), or `nil`.
    public func value(_ name: String) -> String? { values[name]?.last }

    /// Every value of a repeatable option, in order (empty when absent).
    public func allValues(_ name: String) -> [String] { values[name] ?? [] }

    /// A positional argument, or `nil` when an optional one was left out.
    public func argument(_ name: String) -> String? { arguments[name] }

    /// A positional argument the parser guarantees (declared required).
    public func requiredArgument(_ name: String) throws(UsageError) -> String {
        guard let value = arguments[name] else { throw usageError("missing argument \(name)") }
        return value
    }

    // MARK: Typed access

    /// An option's value as a whole number within `range`.
    public func integer(_ name: String, in range: ClosedRange<Int> = Int.min...Int.max) throws(UsageError) -> Int? {
        guard let text = value(name) else { return nil }
        return try Self.integer(text, what: "--\(name)", in: range, error: usageError)
    }

    /// Every value of a repeatable option as whole numbers within `range`.
    public func integers(_ name: String, in range: ClosedRange<Int> = Int.min...Int.max) throws(UsageError) -> [Int] {
        var result: [Int] = []
        for text in allValues(name) {
            result.append(try Self.integer(text, what: "--\(name)", in: range, error: usageError))
        }
        return result
    }

    /// A positional argument as a whole number within `range`.
    public func integerArgument(_ name: String, in range: ClosedRange<Int> = Int.min...Int.max) throws(UsageError)
        -> Int
    {
        try Self.integer(try requiredArgument(name), what: name, in: range, error: usageError)
    }

    /// The longest `--timeout` (a day), so that every accepted value is one the client and the timer can keep.
    public static let maximumSeconds: Double = 86_400

    /// An option's value as a number of seconds greater than 0 and at most ``maximumSeconds``, decimals allowed
    /// (`0.5`); a fraction of a millisecond counts as one.
    public func seconds(_ name: String) throws(UsageError) -> Duration? {
        guard let text = value(name) else { return nil }
        guard let seconds = Double(text.trimmingCharacters(in: .whitespaces)), seconds.isFinite, seconds > 0,
            seconds <= Self.maximumSeconds
        else {
            throw usageError(
                "--\(name) expects a number of seconds greater than 0 and at most \(Int(Self.maximumSeconds)) (a day), "
                    + "such as 0.5 or 30, not '\(UsageError.echo(text))'")
        }
        return .milliseconds(Int((seconds * 1000).rounded(.up)))
    }

    /// An option's value as a decimal number within `range` (whose lower bound is greater than 0).
    public func positiveDecimal(_ name: String, in range: ClosedRange<Double>) throws(UsageError) -> Double? {
        guard let text = value(name) else { return nil }
        guard let number = Double(text.trimmingCharacters(in: .whitespaces)), range.contains(number) else {
            let bounds = "from \(Self.format(range.lowerBound)) to \(Self.format(range.upperBound))"
            throw usageError("--\(name) expects a number \(bounds), not '\(UsageError.echo(text))'")
        }
        return number
    }

    /// A bound as people write it: `0.01`, `1000`.
    private static func format(_ value: Double) -> String {
        value == value.rounded() && abs(value) < 1e15 ? String(Int(value)) : String(value)
    }

    private static func integer(
        _ text: String, what: String, in range: ClosedRange<Int>, error: (String) -> UsageError
    ) throws(UsageError) -> Int {
        guard let number = Int(text) else {
            throw error(ToolText.sentence("usage.wholeNumber", ["what": what, "text": UsageError.echo(text)]))
        }
        guard range.contains(number) else {
            let values = [
                "what": what, "low": String(range.lowerBound), "high": String(range.upperBound),
                "number": String(number),
            ]
            let key =
                range.upperBound == Int.max
                ? "usage.atLeast" : range.lowerBound == Int.min ? "usage.atMost" : "usage.between"
            throw error(ToolText.sentence(key, values))
        }
        return number
    }
}
