/// ANSI text styles, applied only when color is allowed on the stream the text goes to.
public struct Style: Sendable, Hashable {
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
        enabled && !text.isEmpty ? "\u{1B}[\(code)m\(text)\u{1B}[0m" : text
    }
}
