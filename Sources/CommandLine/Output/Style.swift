/// ANSI text styles, applied only when color is allowed on the stream the text goes to.
///
/// A style does not write an escape sequence into the text: it writes ``marker`` and the colour's code, and only
/// ``Console`` turns that into the sequence, after removing every control character the text held. So the tools'
/// own colours come from the tools, and a colour (or a concealing `ESC[8m`) in a server's text never reaches the
/// terminal.
public struct Style: Sendable, Hashable {
    /// Where a colour starts: ESC and a token drawn at random when the process starts, so that no text a server
    /// sent can contain it; the colour's code and `m` follow. ``TerminalText/safe(_:)`` reads it.
    static let marker = "\u{1B}" + String(UInt64.random(in: .min ... .max), radix: 36)

    /// Whether styles produce escape codes.
    public var enabled: Bool

    /// Creates a style set; with `enabled == false` every method returns its text unchanged.
    public init(enabled: Bool) { self.enabled = enabled }

    /// Bold text.
    public func bold(_ text: String) -> String { wrap(text, "1") }
    /// Dimmed text for secondary details.
    public func dim(_ text: String) -> String { wrap(text, "2") }
    /// Red text for errors.
    public func red(_ text: String) -> String { wrap(text, "31") }
    /// Yellow text for warnings.
    public func yellow(_ text: String) -> String { wrap(text, "33") }
    /// Cyan text for identifiers.
    public func cyan(_ text: String) -> String { wrap(text, "36") }

    private func wrap(_ text: String, _ code: String) -> String {
        enabled && !text.isEmpty ? "\(Self.marker)\(code)m\(text)\(Self.marker)0m" : text
    }
}
