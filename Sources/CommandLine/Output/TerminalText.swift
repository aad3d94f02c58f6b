/// Text made safe to write to a terminal: what a server sends (a meal's name, an error page) must not move the
/// cursor, retitle the window, write the clipboard (OSC 52) or hide the lines before it.
///
/// Kept: printable characters, line feeds, tabs, and the colour sequences ``Style`` writes (`ESC [ digits ; … m`).
/// Removed: every other escape sequence, every other C0 or C1 control character (carriage return and DEL included),
/// and the bidirectional controls (U+202A–U+202E, U+2066–U+2069, U+200E, U+200F, U+061C), which would make text read
/// in another order than it is.
public enum TerminalText {
    /// The text without terminal controls other than colours.
    public static func safe(_ text: String) -> String {
        guard text.unicodeScalars.contains(where: isControl) else { return text }
        var result = String.UnicodeScalarView()
        var scalars = text.unicodeScalars[...]
        while let scalar = scalars.first {
            scalars = scalars.dropFirst()
            guard isControl(scalar) else {
                result.append(scalar)
                continue
            }
            if scalar == "\n" || scalar == "\t" {
                result.append(scalar)
            } else if scalar == "\u{1B}", let colour = colourSequence(at: scalars) {
                result.append(scalar)
                result.append(contentsOf: scalars.prefix(colour))
                scalars = scalars.dropFirst(colour)
            }
        }
        return String(result)
    }

    private static func isControl(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.value {
        case 0..<0x20, 0x7F...0x9F, 0x202A...0x202E, 0x2066...0x2069, 0x200E, 0x200F, 0x061C: return true
        default: return false
        }
    }

    /// The length of `[` digits-and-semicolons `m` after an ESC, when that is what follows.
    private static func colourSequence(at scalars: Substring.UnicodeScalarView) -> Int? {
        guard scalars.first == "[" else { return nil }
        var length = 1
        for scalar in scalars.dropFirst() {
            length += 1
            if scalar == "m" { return length }
            guard ("0"..."9").contains(scalar) || scalar == ";", length < 32 else { return nil }
        }
        return nil
    }
}
