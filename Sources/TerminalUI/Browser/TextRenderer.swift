/// Draws a text page: the picture at the top left with the title and facts beside it, then the sections, all laid
/// out on a page as tall as it needs and shown from the scrolled line.
enum TextRenderer {
    static func draw(_ text: TextBody, frame: Frame, into grid: inout Grid, area: (top: Int, rows: Int)) {
        let page = page(text, width: grid.size.columns, colors: frame.colors, mode: frame.pictures)
        let maximum = max(0, page.size.rows - area.rows)
        let first = min(max(0, text.scroll), maximum)
        grid.paste(page, rows: first..<(first + area.rows), at: area.top)
        if maximum > 0 {
            let mark = first >= maximum ? "end" : "↓ more (\(first * 100 / maximum)%)"
            grid.write(
                mark, row: area.top + area.rows - 1, column: grid.size.columns - TextWidth.of(mark) - 1,
                style: .dim)
        }
    }

    /// The whole page at a width, as tall as its content.
    static func page(_ text: TextBody, width: Int, colors: ColorDepth, mode: PictureMode = .blocks) -> Grid {
        let margin = 2
        let hasPicture = text.picture != nil || text.pictureNote != nil
        let pictureBox = Size(columns: hasPicture ? min(40, max(12, width / 3)) : 0, rows: 0)
        let pictureRows: Int
        if case .ready(let picture) = text.picture, colors != .none, mode != .none {
            pictureRows = picture.cellSize(fitting: Size(columns: pictureBox.columns, rows: 60)).rows
        } else {
            pictureRows = hasPicture ? max(6, pictureBox.columns / 2) : 0
        }
        let sideColumn = margin + (hasPicture ? pictureBox.columns + 2 : 0)
        let sideWidth = max(10, width - sideColumn - margin)
        var side: [(String, CellStyle)] = TextWidth.wrap(text.title, to: sideWidth).map { ($0, .bold) }
        if !text.subtitle.isEmpty { side += TextWidth.wrap(text.subtitle, to: sideWidth).map { ($0, .dim) } }
        side.append(("", .plain))
        let labelWidth = min(16, (text.facts.map { TextWidth.of($0.label) }.max() ?? 0) + 1)
        for fact in text.facts {
            let lines = TextWidth.wrap(fact.value, to: max(4, sideWidth - labelWidth - 1))
            for (index, line) in lines.enumerated() {
                let label = index == 0 ? TextWidth.truncate(fact.label, to: labelWidth) : ""
                side.append((label.padding(toColumns: labelWidth) + " " + line, .plain))
            }
        }
        var body: [Line] = []
        for section in text.sections {
            body.append(Line(text: "", style: .plain))
            body.append(Line(text: section.heading, style: .bold))
            body += lines(of: section.content, width: width - 2 * margin)
        }
        let showsNote = text.pictureNote != nil && (text.picture == nil || text.picture == .unavailable)
        // The note goes first, across the whole width and never wrapped: an address cut in two is not a link.
        let first = showsNote ? 2 : 0
        let top = first + max(pictureRows, side.count)
        var grid = Grid(size: Size(columns: width, rows: top + body.count + 1))
        if let note = text.pictureNote, showsNote { grid.write(note, row: 0, column: margin) }
        if hasPicture {
            let box = Size(columns: pictureBox.columns, rows: pictureRows)
            if showsNote {
                noteBox("No public-domain picture", into: &grid, row: first, column: margin, box: box)
            } else {
                PictureBox.draw(
                    text.picture, colors: colors, mode: mode, into: &grid, row: first, column: margin, box: box)
            }
        }
        for (row, (line, style)) in side.enumerated() {
            grid.write(line, row: first + row, column: sideColumn, style: style, limit: sideWidth)
        }
        for (offset, line) in body.enumerated() {
            grid.write(
                line.text, row: top + offset, column: margin, style: line.style,
                limit: line.unlimited ? nil : width - 2 * margin)
        }
        return grid
    }

    struct Line {
        var text: String
        var style: CellStyle
        var unlimited = false
    }

    private static func lines(of content: TextBody.Section.Content, width: Int) -> [Line] {
        switch content {
        case .paragraph(let text):
            return TextWidth.wrap(text, to: width - 2).map { Line(text: "  " + $0, style: .plain) }
        case .table(let rows):
            let first = min(width / 3, rows.map { TextWidth.of($0.first ?? "") }.max() ?? 0)
            return rows.map { columns in
                let head = TextWidth.truncate(columns.first ?? "", to: first)
                let padded = String(repeating: " ", count: first - TextWidth.of(head)) + head
                return Line(text: "  " + padded + "  " + columns.dropFirst().joined(separator: "  "), style: .plain)
            }
        case .links(let links):
            let labelWidth = links.map { TextWidth.of($0.label) }.max() ?? 0
            return links.map {
                Line(text: "  " + $0.label.padding(toColumns: labelWidth) + "  " + $0.value, style: .plain)
            }
        }
    }

    /// Where there is no picture to show, an outline that says so.
    private static func noteBox(_ note: String, into grid: inout Grid, row: Int, column: Int, box: Size) {
        let inner = box.columns - 2
        let bottom = row + max(2, box.rows - 1)
        grid.write("┌" + String(repeating: "─", count: inner) + "┐", row: row, column: column, style: .dim)
        for y in (row + 1)..<bottom {
            grid.write("│", row: y, column: column, style: .dim)
            grid.write("│", row: y, column: column + box.columns - 1, style: .dim)
        }
        grid.write("└" + String(repeating: "─", count: inner) + "┘", row: bottom, column: column, style: .dim)
        for (offset, line) in TextWidth.wrap(note, to: inner - 1).enumerated() where row + 1 + offset < bottom {
            grid.write(line, row: row + 1 + offset, column: column + 1, style: .plain)
        }
    }
}

extension String {
    /// The string padded with spaces to a number of columns.
    func padding(toColumns columns: Int) -> String {
        self + String(repeating: " ", count: max(0, columns - TextWidth.of(self)))
    }
}
