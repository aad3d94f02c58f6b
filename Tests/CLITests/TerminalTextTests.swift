import CommandLine
import Foundation
import Synchronization
import Testing

/// A hostile server's text cannot drive the user's terminal: only the tools' own colours survive.
@Suite("Security: server text cannot drive the terminal")
struct TerminalTextTests {
    @Test(
        "controls are removed, colours, tabs and line feeds kept",
        arguments: [
            ("Pie\u{1B}]52;c;cm0gLXJmIH4=\u{07}", "Pie]52;c;cm0gLXJmIH4="),  // clipboard write (OSC 52)
            ("Pie\u{1B}]0;owned\u{1B}\\", "Pie]0;owned\\"),  // window title
            ("safe\r\u{1B}[2Kfake line", "safe[2Kfake line"),  // overwrite the line
            ("a\u{1B}[31mred\u{1B}[0m\tb\nc", "a[31mred[0m\tb\nc"),  // a server's colours are its text, not colours
            ("secret\u{1B}[8mhidden", "secret[8mhidden"),  // conceal
            ("bell\u{07} del\u{7F} c1\u{9B}31m", "bell del c131m"),
            ("invoice\u{202E}fdp.exe", "invoicefdp.exe"),  // right-to-left override
            ("a\u{2066}b\u{2069}c\u{200F}d", "abcd"),  // isolates and marks
            ("plain text, unchanged", "plain text, unchanged"),
        ])
    func safeText(input: String, expected: String) {
        #expect(TerminalText.safe(input) == expected)
    }

    @Test("the tools' own colours reach the terminal; a server's text inside them loses its controls")
    func toolColours() {
        let style = Style(enabled: true)
        #expect(TerminalText.safe(style.red("x")) == "\u{1B}[31mx\u{1B}[0m")
        #expect(
            TerminalText.safe("Meal: " + style.bold("Pie\u{1B}[8m\u{202E}gone")) == "Meal: \u{1B}[1mPie[8mgone\u{1B}[0m"
        )
        #expect(TerminalText.safe(Style(enabled: false).bold("plain")) == "plain")
    }

    @Test("text that imitates the colour marker without its token stays printable text")
    func forgedMarker() {
        let forged = "\u{1B}31mred?"
        #expect(TerminalText.safe(forged) == "31mred?")
    }

    @Test func theConsoleWritesOnlySafeText() {
        let written = Captured()
        let console = Console(
            toolName: "t",
            terminal: Terminal(stdoutIsTerminal: true, stderrIsTerminal: true, colorAllowed: true, width: 80),
            out: { written.append($0) }, error: { written.append($0) })
        console.print("Meal\u{1B}]52;c;ZXZpbA==\u{07}")
        console.error("server said \u{1B}[2J\u{1B}[Hgone")
        #expect(!written.text.contains("\u{1B}]"))
        #expect(!written.text.contains("\u{1B}[2J"))
        #expect(!written.text.contains("\u{07}"))
    }
}

/// Text written by a console under test.
private final class Captured: Sendable {
    private let storage = Mutex("")

    func append(_ text: String) { storage.withLock { $0 += text } }

    var text: String { storage.withLock { $0 } }
}

/// `--json` output is exact: nothing of a string is filtered, and whatever a terminal would act on is escaped.
@Suite("Security: JSON output keeps every character, escaped")
struct JSONExactnessTests {
    @Test(
        "C1 controls, DEL, escape, bidi overrides and separators are escaped, not dropped",
        arguments: [
            ("csi\u{9B}31m", #""csi\u009b31m""#),
            ("esc\u{1B}[8mhidden", #""esc\u001b[8mhidden""#),
            ("del\u{7F}", #""del\u007f""#),
            ("rtl\u{202E}txt.exe", #""rtl\u202etxt.exe""#),
            ("isolate\u{2066}x\u{2069}", #""isolate\u2066x\u2069""#),
            ("line\u{2028}sep", #""line\u2028sep""#),
            ("Crème brûlée", #""Crème brûlée""#),
        ])
    func escaped(value: String, rendered: String) throws {
        #expect(JSONValue.string(value).rendered() == rendered)
        let decoded = try JSONDecoder().decode(String.self, from: Data(rendered.utf8))
        #expect(decoded == value, "a JSON reader gets the exact string back")
    }

    @Test("the console prints a JSON document as rendered, with nothing filtered")
    func consolePrintsJSONExactly() {
        let written = Captured()
        let console = Console(
            toolName: "t",
            terminal: Terminal(stdoutIsTerminal: true, stderrIsTerminal: true, colorAllowed: true, width: 80),
            out: { written.append($0) }, error: { written.append($0) })
        let document = JSONValue.array([.string("a\u{9B}b"), .string("\u{1B}[8m")])
        console.printJSON(document)
        #expect(written.text == document.rendered() + "\n")
        #expect(!written.text.unicodeScalars.contains { $0.value < 0x20 && $0 != "\n" })
    }
}
