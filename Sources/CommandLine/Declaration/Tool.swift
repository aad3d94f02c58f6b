/// A command-line tool declared as data: its commands and options, from which parsing and `--help` are derived.
///
/// ```swift
/// let tool = Tool(name: "mealdb", version: "1.0.0", summary: "Browse TheMealDB.", options: [.flag("json", help: "…")],
///                 commands: [Command("show", summary: "One meal.", positionals: [Positional("ID", help: "…")])])
/// switch try tool.parse(["show", "52771", "--json"]) { … }
/// ```
/// `--help`/`-h` and `--version` are built in, as is `help [COMMAND]`.
public struct Tool: Sendable, Hashable {
    /// The executable's name, used in usage lines and messages.
    public var name: String
    /// The version printed by `--version`.
    public var version: String
    /// One line saying what the tool is for.
    public var summary: String
    /// Options every command accepts.
    public var options: [Option]
    /// The commands, in the order help lists them.
    public var commands: [Command]
    /// Text shown at the end of the tool's help (exit codes, environment variables), lines kept as written.
    public var epilogue: String?

    /// Creates a tool.
    public init(
        name: String, version: String, summary: String, options: [Option] = [], commands: [Command],
        epilogue: String? = nil
    ) {
        self.name = name
        self.version = version
        self.summary = summary
        self.options = options
        self.commands = commands
        self.epilogue = epilogue
    }

    /// The command with this name.
    public func command(named name: String) -> Command? {
        commands.first { $0.name == name }
    }

    /// The options that apply to a command: the command's own, then the tool's.
    func options(for command: Command?) -> [Option] {
        (command?.options ?? []) + options
    }

    /// The built-in options every tool has.
    static let builtInOptions: [Option] = [
        .flag("help", short: "h", help: "Show this help and exit."),
        .flag("version", help: "Print the version and exit."),
    ]
}
