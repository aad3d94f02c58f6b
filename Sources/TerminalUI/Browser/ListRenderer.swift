/// Draws a list page: one line a row, or three with a thumbnail; the selected row reversed, the list scrolled a
/// page at a time so the selection stays on screen.
enum ListRenderer {
    /// Columns of a row's thumbnail (6×3 cells: 6×6 pixels).
    static let thumbnailColumns = 6

    static func rowHeight(_ list: ListBody) -> Int { list.showsPictures ? 3 : 1 }

    static func draw(_ list: ListBody, frame: Frame, into grid: inout Grid, area: (top: Int, rows: Int)) {
        let height = rowHeight(list)
        let statusRows = list.status == nil ? 0 : 2
        let perPage = max(1, (area.rows - statusRows) / height)
        let selection = max(0, min(list.selection, list.rows.count - 1))
        let first = (selection / perPage) * perPage
        let width = grid.size.columns
        for (offset, index) in (first..<min(list.rows.count, first + perPage)).enumerated() {
            let row = list.rows[index]
            let top = area.top + offset * height
            let selected = index == selection
            var column = 1
            grid.write(selected ? "▶" : " ", row: top, column: 0, style: .bold)
            if list.showsPictures {
                PictureBox.draw(
                    row.picture, colors: frame.colors, mode: frame.pictures, into: &grid, row: top, column: column,
                    box: Size(columns: thumbnailColumns, rows: height))
                column += thumbnailColumns + 1
                let titleStyle = selected ? CellStyle(bold: true, reverse: true) : CellStyle.bold
                grid.write(
                    " " + TextWidth.truncate(row.title, to: width - column - 3) + " ", row: top, column: column,
                    style: titleStyle)
                grid.write(" " + row.subtitle, row: top + 1, column: column, style: .dim, limit: width - column - 1)
            } else {
                let titleWidth = min(max(20, width / 2), width - column - 2)
                let style = selected ? CellStyle(bold: true, reverse: true) : CellStyle.plain
                grid.write(
                    " " + TextWidth.truncate(row.title, to: titleWidth - 2) + " ", row: top, column: column,
                    style: style)
                column += titleWidth + 1
                if column < width - 2 {
                    grid.write(
                        TextWidth.truncate(row.subtitle, to: width - column - 1), row: top, column: column,
                        style: .dim)
                }
            }
        }
        if list.rows.count > perPage {
            let pages = "\(first / perPage + 1)/\((list.rows.count + perPage - 1) / perPage)"
            grid.write(pages, row: area.top + area.rows - 1, column: width - TextWidth.of(pages) - 1, style: .dim)
        }
        if let status = list.status {
            let used = min(list.rows.count - first, perPage) * height
            let rows = max(1, area.rows - used)
            FrameRenderer.drawStatus(status, tick: frame.tick, into: &grid, area: (area.top + used, rows))
        }
    }
}

/// A picture in a box of cells, or the placeholder for one on its way or not to be had.
enum PictureBox {
    static func draw(
        _ slot: PictureSlot?, colors: ColorDepth, mode: PictureMode, into grid: inout Grid, row: Int, column: Int,
        box: Size
    ) {
        guard let slot else { return }
        switch (slot, mode == .none ? ColorDepth.none : colors) {
        case (.ready(let picture), .trueColor), (.ready(let picture), .palette256):
            PictureCells.draw(picture, in: &grid, row: row, column: column, box: box, mode: mode)
        case (.loading, .trueColor), (.loading, .palette256):
            // A grey placeholder while the picture loads, as the apps show.
            let grey = CellStyle(foreground: .palette(245), background: .palette(238))
            for y in 0..<box.rows {
                for x in 0..<box.columns { grid.set(Cell("░", style: grey), row: row + y, column: column + x) }
            }
        default:
            label(slot == .loading ? "…" : "no picture", into: &grid, row: row, column: column, box: box)
        }
    }

    /// A labelled outline where no picture can be drawn (no colour, no decoder, or the picture failed).
    private static func label(_ text: String, into grid: inout Grid, row: Int, column: Int, box: Size) {
        guard box.columns >= 2, box.rows >= 1 else { return }
        if box.rows == 1 {
            grid.write(TextWidth.truncate("[" + text + "]", to: box.columns), row: row, column: column, style: .dim)
            return
        }
        let inner = box.columns - 2
        let text = inner < 10 ? (text == "…" ? "…" : "×") : text
        grid.write("┌" + String(repeating: "─", count: inner) + "┐", row: row, column: column, style: .dim)
        for y in 1..<(box.rows - 1) {
            grid.write("│", row: row + y, column: column, style: .dim)
            grid.write("│", row: row + y, column: column + box.columns - 1, style: .dim)
        }
        grid.write(
            "└" + String(repeating: "─", count: inner) + "┘", row: row + box.rows - 1, column: column,
            style: .dim)
        let lines = TextWidth.wrap(text, to: inner)
        let top = row + max(1, (box.rows - lines.count) / 2)
        for (offset, line) in lines.enumerated() where top + offset < row + box.rows - 1 {
            grid.write(line, row: top + offset, column: column + 1 + (inner - TextWidth.of(line)) / 2, style: .dim)
        }
    }
}
