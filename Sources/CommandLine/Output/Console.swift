import Foundation
import Synchronization

/// The process's output: results on stdout, diagnostics and progress on stderr, each styled for its stream.
///
/// Writes are unbuffered and whole (one `write` per call), so lines from concurrent tasks never interleave mid-line.
public struct Console: Sendable {
    /// The tool's name, prefixed to diagnostics.
    public let toolName: String
    /// What the streams are.
    public let terminal: Terminal
    /// Where stdout text goes (the process's stdout unless a test captures it).
    private let writeOut: @Sendable (String) -> Void
    /// Where stderr text goes.
    private let writeError: @Sendable (String) -> Void

    /// A console writing to the process's standard streams (``OutputStream``): a failed write is kept for
    /// ``ToolMain`` to report, never a trap.
    public init(toolName: String, terminal: Terminal) {
        self.init(
            toolName: toolName, terminal: terminal,
            out: { OutputStream.standardOutput.write($0) },
            error: { OutputStream.standardError.write($0) })
    }

    /// A console writing to closures (for tests).
    public init(
        toolName: String, terminal: Terminal, out: @escaping @Sendable (String) -> Void,
        error: @escaping @Sendable (String) -> Void
    ) {
        self.toolName = toolName
        self.terminal = terminal
        self.writeOut = out
        self.writeError = error
    }

    /// Styles for stdout.
    public var outStyle: Style { Style(enabled: terminal.stdoutColor) }
    /// Styles for stderr.
    public var errorStyle: Style { Style(enabled: terminal.stderrColor) }

    /// Prints a line (or several) on stdout, with the terminal controls a server's text might carry removed.
    public func print(_ text: String) {
        let safe = TerminalText.safe(text)
        writeOut(safe.hasSuffix("\n") ? safe : safe + "\n")
    }

    /// Prints a JSON document on stdout: the only thing a `--json` run prints there. Every string is exact: the
    /// rendering escapes whatever a terminal would act on, so no character of the data is filtered out.
    public func printJSON(_ value: JSONValue) { writeOut(value.rendered() + "\n") }

    /// Prints a line on stderr, with the terminal controls a server's text might carry removed.
    public func diagnostic(_ text: String) {
        let safe = TerminalText.safe(text)
        writeError(safe.hasSuffix("\n") ? safe : safe + "\n")
    }

    /// Prints `tool: warning: …` on stderr.
    public func warning(_ message: String) {
        diagnostic("\(toolName): \(errorStyle.yellow("warning:")) \(message)")
    }

    /// Prints `tool: error: …` on stderr.
    public func error(_ message: String) {
        diagnostic("\(toolName): \(errorStyle.red("error:")) \(message)")
    }

    /// Writes raw text on stderr (progress redraws), without adding a newline.
    public func rawError(_ text: String) { writeError(text) }
}
