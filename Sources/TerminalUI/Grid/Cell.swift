/// A colour of the terminal's: 24-bit, or one of the 256 of the xterm palette.
public enum Color: Hashable, Sendable {
    /// A 24-bit colour.
    case rgb(UInt8, UInt8, UInt8)
    /// An entry of the 256-colour palette (0–15 are the terminal's own theme colours).
    case palette(UInt8)
}

/// How a cell is drawn.
public struct CellStyle: Hashable, Sendable {
    /// The colour of the character; `nil` is the terminal's default.
    public var foreground: Color?
    /// The colour behind it; `nil` is the terminal's default.
    public var background: Color?
    /// Bold.
    public var bold: Bool
    /// Dimmed.
    public var dim: Bool
    /// Foreground and background swapped (the selection, the title bar).
    public var reverse: Bool

    /// Creates a style; the default is plain text.
    public init(
        foreground: Color? = nil, background: Color? = nil, bold: Bool = false, dim: Bool = false,
        reverse: Bool = false
    ) {
        self.foreground = foreground
        self.background = background
        self.bold = bold
        self.dim = dim
        self.reverse = reverse
    }

    /// Plain text.
    public static let plain = CellStyle()
    /// Bold text.
    public static let bold = CellStyle(bold: true)
    /// Dimmed text.
    public static let dim = CellStyle(dim: true)
    /// Reversed text.
    public static let reverse = CellStyle(reverse: true)
}

/// One cell of the screen: a character (a grapheme cluster) and its style. A wide character fills its cell and the
/// next, which holds ``continuation``.
public struct Cell: Hashable, Sendable {
    /// The character shown; empty in the right half of a wide character.
    public var character: String
    /// How it is drawn.
    public var style: CellStyle

    /// Creates a cell.
    public init(_ character: String, style: CellStyle = .plain) {
        self.character = character
        self.style = style
    }

    /// A blank cell.
    public static let blank = Cell(" ")
    /// The right half of a wide character.
    public static let continuation = Cell("")
}
