/// Text made safe to write to a terminal: what a server sends (a meal's name, an error page) must not move the
/// cursor, retitle the window, write the clipboard (OSC 52), hide text or reorder it.
///
/// Kept: printable characters, line feeds and tabs. Removed: every C0 and C1 control character (ESC, carriage return
/// and DEL included), so no escape sequence survives, and the bidirectional controls (U+202A–U+202E, U+2066–U+2069,
/// U+200E, U+200F, U+061C), which would make text read in another order than it is. The only colours are the tools'
/// own: ``Style`` marks them with ``Style/marker``, which this turns into `ESC [ code m`.
public enum TerminalText {
    /// The text as printable characters, with the tools' own colours.
    public static func safe(_ text: String) -> String {
        guard text.unicodeScalars.contains(where: isControl) else { return text }
        let pieces = text.components(separatedBy: Style.marker)
        var result = printable(pieces[0])
        for piece in pieces.dropFirst() {
            guard let end = piece.firstIndex(of: "m"), !piece[..<end].isEmpty,
                piece[..<end].allSatisfy({ $0.isASCII && ($0.isNumber || $0 == ";") })
            else {
                result += printable(piece)
                continue
            }
            result += "\u{1B}[" + piece[..<end] + "m" + printable(piece[piece.index(after: end)...])
        }
        return result
    }

    /// The text without any control character but line feed and tab.
    private static func printable(_ text: some StringProtocol) -> String {
        var scalars = String.UnicodeScalarView()
        scalars.append(contentsOf: text.unicodeScalars.filter { !isControl($0) || $0 == "\n" || $0 == "\t" })
        return String(scalars)
    }

    private static func isControl(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.value {
        case 0..<0x20, 0x7F...0x9F, 0x202A...0x202E, 0x2066...0x2069, 0x200E, 0x200F, 0x061C: return true
        default: return false
        }
    }
}
