/// How many terminal columns text takes: 2 for East Asian wide and emoji characters, 0 for combining marks and other
/// zero-width characters, 1 for the rest — measured per grapheme cluster, as terminals advance the cursor.
public enum TextWidth {
    /// The columns one character (grapheme cluster) takes.
    public static func of(_ character: Character) -> Int {
        var width = 0
        for scalar in character.unicodeScalars {
            let own = of(scalar)
            // A cluster is as wide as its widest part: a base letter and its accents take the base's column, an
            // emoji with a variation selector or a skin tone takes two.
            if own > width { width = own }
            if scalar.value == 0xFE0F, width == 1 { width = 2 }
        }
        return width
    }

    /// The columns a string takes.
    public static func of(_ text: some StringProtocol) -> Int {
        text.reduce(0) { $0 + of($1) }
    }

    /// The columns one scalar takes on its own.
    static func of(_ scalar: Unicode.Scalar) -> Int {
        let value = scalar.value
        if value < 0x20 || (0x7F..<0xA0).contains(value) { return 0 }
        switch scalar.properties.generalCategory {
        case .nonspacingMark, .enclosingMark, .format: return 0
        default: break
        }
        if (0x1160...0x11FF).contains(value) || value == 0x200B { return 0 }
        if scalar.properties.isEmojiPresentation { return 2 }
        return isWide(value) ? 2 : 1
    }

    /// East Asian Wide and Fullwidth ranges (Unicode's EastAsianWidth.txt, W and F, folded into blocks).
    private static let wideRanges: [ClosedRange<UInt32>] = [
        0x1100...0x115F, 0x231A...0x231B, 0x2329...0x232A, 0x2E80...0x303E, 0x3041...0x33FF, 0x3400...0x4DBF,
        0x4E00...0x9FFF, 0xA000...0xA4CF, 0xA960...0xA97F, 0xAC00...0xD7A3, 0xF900...0xFAFF, 0xFE10...0xFE19,
        0xFE30...0xFE6F, 0xFF00...0xFF60, 0xFFE0...0xFFE6, 0x16FE0...0x16FE4, 0x17000...0x18CFF, 0x1B000...0x1B2FF,
        0x1F200...0x1F2FF, 0x1F300...0x1F64F, 0x1F900...0x1F9FF, 0x20000...0x2FFFD, 0x30000...0x3FFFD,
    ]

    private static func isWide(_ value: UInt32) -> Bool {
        guard value >= 0x1100 else { return false }
        return wideRanges.contains { $0.contains(value) }
    }

    /// The longest prefix of `text` that fits in `columns`, with `…` at its end when something was cut.
    public static func truncate(_ text: String, to columns: Int) -> String {
        guard columns > 0 else { return "" }
        guard of(text) > columns else { return text }
        var result = ""
        var used = 0
        for character in text {
            let width = of(character)
            if used + width > columns - 1 { break }
            result.append(character)
            used += width
        }
        return result + "…"
    }

    /// Words wrapped into lines of at most `columns` columns; a word longer than a line is cut across lines.
    public static func wrap(_ text: String, to columns: Int) -> [String] {
        guard columns > 0 else { return [] }
        var lines: [String] = []
        for paragraph in text.split(separator: "\n", omittingEmptySubsequences: false) {
            var line = ""
            var used = 0
            for word in paragraph.split(separator: " ") {
                var word = String(word)
                while of(word) > columns {
                    if !line.isEmpty {
                        lines.append(line)
                        line = ""
                        used = 0
                    }
                    let head = prefix(word, fitting: columns)
                    lines.append(head)
                    word = String(word.dropFirst(head.count))
                }
                let width = of(word)
                if used > 0, used + 1 + width > columns {
                    lines.append(line)
                    line = ""
                    used = 0
                }
                if used > 0 {
                    line += " "
                    used += 1
                }
                line += word
                used += width
            }
            lines.append(line)
        }
        return lines
    }

    private static func prefix(_ text: String, fitting columns: Int) -> String {
        var result = ""
        var used = 0
        for character in text {
            let width = of(character)
            if used + width > columns { break }
            result.append(character)
            used += width
        }
        return result.isEmpty ? String(text.prefix(1)) : result
    }
}
