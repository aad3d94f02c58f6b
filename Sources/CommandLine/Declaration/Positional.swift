/// A positional argument of a command, as `ID` in `show ID`.
public struct Positional: Sendable, Hashable {
    /// The placeholder shown in usage and help, as `ID`.
    public var name: String
    /// One line for the help text.
    public var help: String
    /// Whether the command runs without it.
    public var isOptional: Bool

    /// Creates a positional argument.
    public init(_ name: String, help: String, isOptional: Bool = false) {
        self.name = name
        self.help = help
        self.isOptional = isOptional
    }
}
