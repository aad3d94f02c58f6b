/// The keys of both browsers, in a box over the page (`?`).
enum HelpOverlay {
    static func lines(searchLabel: String) -> [(String, String)] {
        [
            ("↑ ↓  j k", "move (the mouse wheel too)"), ("PgUp PgDn", "a page up or down"),
            ("Home End", "first or last"), ("Enter", "open"), ("Esc  Backspace", "back"),
            ("/", "type in the field “\(searchLabel)”"),
            ("r", "retry what failed"), ("?", "this help"), ("q  Ctrl-C", "quit"),
        ]
    }

    static func draw(into grid: inout Grid, searchLabel: String) {
        let entries = lines(searchLabel: searchLabel)
        let keyWidth = entries.map { TextWidth.of($0.0) }.max() ?? 0
        let text = entries.map { $0.0.padding(toColumns: keyWidth) + "  " + $0.1 }
        let width = min(grid.size.columns - 4, (text.map { TextWidth.of($0) }.max() ?? 0) + 4)
        let height = text.count + 4
        let top = max(0, (grid.size.rows - height) / 2)
        let left = max(0, (grid.size.columns - width) / 2)
        let line = String(repeating: " ", count: width)
        for row in 0..<height { grid.write(line, row: top + row, column: left, style: .reverse) }
        grid.write(" Keys ", row: top, column: left + 2, style: CellStyle(bold: true, reverse: true))
        for (offset, entry) in text.enumerated() {
            grid.write(entry, row: top + 2 + offset, column: left + 2, style: .reverse, limit: width - 4)
        }
        grid.write(
            "any key closes this", row: top + height - 1, column: left + 2, style: CellStyle(dim: true, reverse: true),
            limit: width - 4)
    }
}
