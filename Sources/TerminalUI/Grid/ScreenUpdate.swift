/// The bytes that turn what the terminal shows into a new grid: only the cells that changed, each run of them
/// after one cursor move, with the style changes it needs. Nothing is cleared first, so nothing flickers.
public enum ScreenUpdate {
    /// The escape sequences and text from `old` (what the terminal shows; `nil` when unknown, as after a resize) to
    /// `new`.
    public static func encode(from old: Grid?, to new: Grid, colors: ColorDepth) -> String {
        let previous = old?.size == new.size ? old : nil
        var output = previous == nil ? "\u{1B}[0m" : ""
        // Every update ends with the style reset, so the terminal starts each one in plain text.
        var style = CellStyle.plain
        var cursor: (row: Int, column: Int)? = nil
        for row in 0..<new.size.rows {
            for column in 0..<new.size.columns {
                let cell = new[row, column]
                if let previous, previous[row, column] == cell { continue }
                // The right half of a wide character is drawn by the character itself.
                if cell.character.isEmpty, column > 0, new[row, column - 1].character.isEmpty == false,
                    TextWidth.of(Character(new[row, column - 1].character)) == 2
                {
                    continue
                }
                if cursor.map({ $0.row != row || $0.column != column }) ?? true {
                    output += "\u{1B}[\(row + 1);\(column + 1)H"
                }
                if style != cell.style {
                    output += sgr(cell.style, colors: colors)
                    style = cell.style
                }
                let character = cell.character.isEmpty ? " " : cell.character
                output += character
                let width = cell.character.isEmpty ? 1 : TextWidth.of(Character(character))
                cursor = (row, column + width)
            }
        }
        if style != .plain, !output.isEmpty { output += "\u{1B}[0m" }
        return output
    }

    /// Select Graphic Rendition: reset, then the style's attributes and colours.
    static func sgr(_ style: CellStyle, colors: ColorDepth) -> String {
        var codes = ["0"]
        if style.bold { codes.append("1") }
        if style.dim { codes.append("2") }
        if style.reverse { codes.append("7") }
        if colors != .none {
            if let foreground = style.foreground { codes.append(code(foreground, layer: 38, colors: colors)) }
            if let background = style.background { codes.append(code(background, layer: 48, colors: colors)) }
        }
        return "\u{1B}[" + codes.joined(separator: ";") + "m"
    }

    private static func code(_ color: Color, layer: Int, colors: ColorDepth) -> String {
        switch (color, colors) {
        case (.rgb(let r, let g, let b), .trueColor): return "\(layer);2;\(r);\(g);\(b)"
        case (.rgb(let r, let g, let b), _): return "\(layer);5;\(ColorDepth.paletteIndex(r, g, b))"
        case (.palette(let index), _): return "\(layer);5;\(index)"
        }
    }
}

/// How many colours the terminal shows.
public enum ColorDepth: Hashable, Sendable {
    /// None: `NO_COLOR`, `TERM=dumb`; pictures are labelled placeholders.
    case none
    /// The 256-colour palette; pictures are mapped onto its colour cube.
    case palette256
    /// 24-bit colour (`COLORTERM=truecolor` or `24bit`).
    case trueColor

    /// What the environment says the terminal can show.
    public static func detect(environment: [String: String]) -> ColorDepth {
        if let noColor = environment["NO_COLOR"], !noColor.isEmpty { return .none }
        let term = environment["TERM"] ?? ""
        if term.isEmpty || term == "dumb" { return .none }
        let colorTerm = environment["COLORTERM"]?.lowercased() ?? ""
        if colorTerm == "truecolor" || colorTerm == "24bit" || term.hasSuffix("-direct") { return .trueColor }
        return .palette256
    }

    /// The nearest entry of the xterm 6×6×6 colour cube or its grey ramp.
    static func paletteIndex(_ r: UInt8, _ g: UInt8, _ b: UInt8) -> Int {
        let levels = [0, 95, 135, 175, 215, 255]
        func nearest(_ value: UInt8) -> Int {
            levels.indices.min { abs(levels[$0] - Int(value)) < abs(levels[$1] - Int(value)) } ?? 0
        }
        let (ri, gi, bi) = (nearest(r), nearest(g), nearest(b))
        func squared(_ a: Int, _ b: UInt8) -> Int {
            let difference = a - Int(b)
            return difference * difference
        }
        let cubeError = squared(levels[ri], r) + squared(levels[gi], g) + squared(levels[bi], b)
        let average = (Int(r) + Int(g) + Int(b)) / 3
        let grey = min(23, max(0, (average - 8 + 5) / 10))
        let greyLevel = 8 + grey * 10
        let greyError = squared(greyLevel, r) + squared(greyLevel, g) + squared(greyLevel, b)
        return greyError < cubeError ? 232 + grey : 16 + 36 * ri + 6 * gi + bi
    }
}
