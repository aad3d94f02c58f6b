import CommandLine

/// A screen's worth of cells, drawn into by the screens and written to the terminal by ``ScreenUpdate``.
///
/// Text written into a grid is cleaned first: whatever a server sent, no control character or escape sequence
/// reaches a cell, so none reaches the terminal.
public struct Grid: Hashable, Sendable {
    /// The size in columns and rows.
    public let size: Size
    /// The cells, row after row.
    public private(set) var cells: [Cell]
    /// The pictures shown as images over blank cells (a terminal graphics protocol), drawn after the cells.
    public private(set) var placements: [PicturePlacement] = []

    /// A blank grid.
    public init(size: Size) {
        self.size = size
        cells = Array(repeating: .blank, count: max(0, size.columns) * max(0, size.rows))
    }

    /// The cell at a position.
    public subscript(row: Int, column: Int) -> Cell {
        cells[row * size.columns + column]
    }

    /// Writes text from a position on one row, clipped at `limit` columns (the row's end by default), and returns
    /// the column after the last one written.
    @discardableResult
    public mutating func write(
        _ text: String, row: Int, column: Int, style: CellStyle = .plain, limit: Int? = nil
    ) -> Int {
        guard (0..<size.rows).contains(row) else { return column }
        let end = min(size.columns, limit.map { column + $0 } ?? size.columns)
        var at = column
        for character in Self.clean(text) {
            let width = TextWidth.of(character)
            if width == 0 { continue }
            if at + width > end { break }
            if at >= 0 {
                place(Cell(String(character), style: style), row: row, column: at)
                if width == 2 { place(Cell("", style: style), row: row, column: at + 1) }
            }
            at += width
        }
        return at
    }

    /// Fills a rectangle of a row with one style (a bar's background), keeping the characters.
    public mutating func fill(row: Int, from column: Int = 0, to end: Int? = nil, style: CellStyle) {
        guard (0..<size.rows).contains(row) else { return }
        for at in max(0, column)..<min(size.columns, end ?? size.columns) {
            cells[row * size.columns + at].style = style
        }
    }

    /// Sets one cell (a picture's half block).
    public mutating func set(_ cell: Cell, row: Int, column: Int) {
        guard (0..<size.rows).contains(row), (0..<size.columns).contains(column) else { return }
        place(cell, row: row, column: column)
    }

    /// Shows a picture as an image over a rectangle, blanking the cells under it so that no text shows through.
    public mutating func place(_ placement: PicturePlacement) {
        for y in placement.rows {
            for x in placement.column..<(placement.column + placement.size.columns) { set(.blank, row: y, column: x) }
        }
        placements.append(placement)
    }

    /// Removes every image (a help overlay is drawn over the page).
    public mutating func removePlacements() {
        placements.removeAll()
    }

    /// Copies rows of another grid (a page taller than the screen) into this one, from `row` down.
    public mutating func paste(_ other: Grid, rows: Range<Int>, at row: Int) {
        for (offset, source) in rows.enumerated() where (0..<other.size.rows).contains(source) {
            let target = row + offset
            guard (0..<size.rows).contains(target) else { break }
            for column in 0..<min(size.columns, other.size.columns) {
                cells[target * size.columns + column] = other[source, column]
            }
        }
        // An image is one piece: one scrolled partly out of view is left out, its cells stay blank.
        for placement in other.placements where rows.contains(placement.row) {
            guard placement.rows.upperBound <= rows.upperBound else { continue }
            var moved = placement
            moved.row = placement.row - rows.lowerBound + row
            if moved.rows.upperBound <= size.rows { placements.append(moved) }
        }
    }

    /// The characters of the grid, one line per row, without trailing blanks: what a snapshot test compares.
    public var text: String {
        (0..<size.rows).map { row in
            var line = ""
            for column in 0..<size.columns { line += self[row, column].character }
            while line.hasSuffix(" ") { line.removeLast() }
            return line
        }.joined(separator: "\n")
    }

    private mutating func place(_ cell: Cell, row: Int, column: Int) {
        let index = row * size.columns + column
        // Overwriting half of a wide character leaves the other half blank, never a dangling half.
        if !cell.character.isEmpty, cells[index].character.isEmpty, column > 0 {
            cells[index - 1] = Cell(" ", style: cells[index - 1].style)
        }
        if column + 1 < size.columns, cells[index + 1].character.isEmpty, !cell.character.isEmpty {
            cells[index + 1] = Cell(" ", style: cells[index + 1].style)
        }
        cells[index] = cell
    }

    /// Server text made safe for a cell: the tools' terminal sanitiser, then line breaks and tabs as spaces.
    static func clean(_ text: String) -> String {
        let safe = TerminalText.safe(text)
        guard safe.contains(where: { $0 == "\n" || $0 == "\t" || $0 == "\r\n" || $0 == "\u{1B}" }) else { return safe }
        return String(safe.compactMap { $0 == "\u{1B}" ? nil : ($0.isNewline || $0 == "\t" ? " " : $0) })
    }
}

/// A size in columns and rows.
public struct Size: Hashable, Sendable, CustomStringConvertible {
    /// Columns.
    public var columns: Int
    /// Rows.
    public var rows: Int

    /// Creates a size.
    public init(columns: Int, rows: Int) {
        self.columns = columns
        self.rows = rows
    }

    /// `80x24`.
    public var description: String { "\(columns)x\(rows)" }
}
