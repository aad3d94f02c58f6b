/// A command of a tool, as `search` in `mealdb search pasta`: its arguments, its own options and its help.
public struct Command: Sendable, Hashable {
    /// The word that selects the command.
    public var name: String
    /// One line for the tool's command list.
    public var summary: String
    /// Longer help shown by `COMMAND --help`, wrapped to the terminal; paragraphs separated by blank lines.
    public var discussion: String?
    /// The positional arguments, in order.
    public var positionals: [Positional]
    /// Options only this command accepts (the tool's options apply to every command as well).
    public var options: [Option]
    /// Example command lines, shown in help.
    public var examples: [String]

    /// Creates a command.
    public init(
        _ name: String, summary: String, discussion: String? = nil, positionals: [Positional] = [],
        options: [Option] = [], examples: [String] = []
    ) {
        self.name = name
        self.summary = summary
        self.discussion = discussion
        self.positionals = positionals
        self.options = options
        self.examples = examples
    }

    /// The argument part of the usage line: `TEXT [options]`, `[ID]`.
    var argumentSynopsis: String {
        positionals.map { $0.isOptional ? "[\($0.name)]" : $0.name }.joined(separator: " ")
    }
}
