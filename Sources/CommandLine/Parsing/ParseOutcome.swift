/// What a command line asks for: help, the version, or running a command.
public enum ParseOutcome: Sendable, Hashable {
    /// `--help`, `-h` or `help [COMMAND]`: print this text on stdout and exit 0.
    case help(String)
    /// `--version`: print this line on stdout and exit 0.
    case version(String)
    /// Run a command.
    case run(Invocation)
}
