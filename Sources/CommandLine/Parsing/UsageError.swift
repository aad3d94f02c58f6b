import Errand

/// A command line that does not fit the tool's declarations: an unknown command or option, a missing or malformed
/// argument. Its ``description`` names the problem and points to `--help`; the exit code is 2.
public struct UsageError: DescribedError, Hashable {
    /// What is wrong, as one sentence: `unknown option '--bogus'.`
    public var problem: String
    /// The command line whose help explains the fix: `mealdb` or `mealdb search`.
    public var helpCommand: String

    /// Creates a usage error.
    public init(_ problem: String, helpCommand: String) {
        self.problem = problem
        self.helpCommand = helpCommand
    }

    /// Input as an error may quote it: whatever could be the user name and password of a URL in it masked
    /// (``Redaction/maskingCredentials(in:)``), since an argument that did not parse may still hold them
    /// (`--proxy 'user:PRO://SECRET@host:3128'`). Every message that quotes an argument or a variable quotes this.
    public static func echo(_ input: String) -> String {
        Redaction.maskingCredentials(in: input)
    }

    /// The problem and where to read more: `unknown option '--bogus'. See 'mealdb search --help'.`
    public var userMessage: String {
        let sentence = problem.hasSuffix(".") ? problem : problem + "."
        return ToolText.sentence("usage.seeHelp", ["problem": sentence, "command": helpCommand])
    }

    /// The problem and the command whose help explains it, for the log.
    public var debugDescription: String { "UsageError(\(helpCommand)): \(problem)" }
}
