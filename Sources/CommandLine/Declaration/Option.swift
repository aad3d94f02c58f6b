/// An option a tool or command accepts: a flag (`--json`), a single value (`--timeout 0.5`) or a repeatable value
/// (`--department 1 --department 3`).
///
/// Values are accepted as `--name value` and `--name=value`. Options may stand anywhere on the command line,
/// before or after the command and its arguments, up to a `--`.
public struct Option: Sendable, Hashable {
    /// What an option takes.
    public enum Kind: Sendable, Hashable {
        /// No value: present or absent.
        case flag
        /// One value; when given twice, the last one counts.
        case value
        /// A value that may be given several times; all are kept in order.
        case repeatable
    }

    /// The long name without dashes, as `timeout`.
    public var name: String
    /// A one-letter alias used as `-x`, if any.
    public var short: Character?
    /// What the option takes.
    public var kind: Kind
    /// The placeholder for the value in help, as `SECONDS`.
    public var valueName: String
    /// One line for the help text.
    public var help: String

    /// Creates an option.
    public init(name: String, short: Character? = nil, kind: Kind, valueName: String = "VALUE", help: String) {
        self.name = name
        self.short = short
        self.kind = kind
        self.valueName = valueName
        self.help = help
    }

    /// A flag: `--name`.
    public static func flag(_ name: String, short: Character? = nil, help: String) -> Option {
        Option(name: name, short: short, kind: .flag, help: help)
    }

    /// An option with one value: `--name VALUE`.
    public static func value(_ name: String, _ valueName: String, short: Character? = nil, help: String) -> Option {
        Option(name: name, short: short, kind: .value, valueName: valueName, help: help)
    }

    /// An option that may be repeated: `--name VALUE --name VALUE`.
    public static func repeatable(_ name: String, _ valueName: String, help: String) -> Option {
        Option(name: name, kind: .repeatable, valueName: valueName, help: help)
    }

    /// Whether the option takes a value.
    public var takesValue: Bool { kind != .flag }

    /// How the option is written in help: `-t, --timeout SECONDS`.
    var signature: String {
        let long = "--" + name + (takesValue ? " " + valueName : "")
        return short.map { "-\($0), " + long } ?? "    " + long
    }
}
