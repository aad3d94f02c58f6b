#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// What the process's standard streams are connected to, and how wide the terminal is.
public struct Terminal: Sendable, Hashable {
    /// Whether stdout is a terminal (human output may then use color and width).
    public var stdoutIsTerminal: Bool
    /// Whether stderr is a terminal (progress bars are drawn only then).
    public var stderrIsTerminal: Bool
    /// Whether colors are allowed at all: `NO_COLOR` unset or empty, and `TERM` not `dumb`.
    public var colorAllowed: Bool
    /// Columns to wrap human output at.
    public var width: Int

    /// Creates a description of the streams (tests pass fixed values).
    public init(stdoutIsTerminal: Bool, stderrIsTerminal: Bool, colorAllowed: Bool, width: Int) {
        self.stdoutIsTerminal = stdoutIsTerminal
        self.stderrIsTerminal = stderrIsTerminal
        self.colorAllowed = colorAllowed
        self.width = width
    }

    /// The streams of this process, judged from `isatty`, `NO_COLOR`, `TERM` and `COLUMNS`.
    public static func current(environment: [String: String]) -> Terminal {
        let stdoutIsTerminal = isatty(STDOUT_FILENO) == 1
        let stderrIsTerminal = isatty(STDERR_FILENO) == 1
        return Terminal(
            stdoutIsTerminal: stdoutIsTerminal, stderrIsTerminal: stderrIsTerminal,
            colorAllowed: colorAllowed(environment: environment),
            width: width(environment: environment, isTerminal: stdoutIsTerminal))
    }

    /// `NO_COLOR` (any non-empty value) and `TERM=dumb` turn color off; see no-color.org.
    public static func colorAllowed(environment: [String: String]) -> Bool {
        if let noColor = environment["NO_COLOR"], !noColor.isEmpty { return false }
        return environment["TERM"] != "dumb"
    }

    /// Whether stdout output may be colored.
    public var stdoutColor: Bool { colorAllowed && stdoutIsTerminal }
    /// Whether stderr output may be colored.
    public var stderrColor: Bool { colorAllowed && stderrIsTerminal }

    private static func width(environment: [String: String], isTerminal: Bool) -> Int {
        if let columns = environment["COLUMNS"].flatMap(Int.init), columns >= 20 { return min(columns, 200) }
        #if os(Linux) || canImport(Darwin)
        if isTerminal {
            var size = winsize()
            if ioctl(STDOUT_FILENO, UInt(TIOCGWINSZ), &size) == 0, size.ws_col >= 20 {
                return min(Int(size.ws_col), 200)
            }
        }
        #endif
        return 80
    }
}
