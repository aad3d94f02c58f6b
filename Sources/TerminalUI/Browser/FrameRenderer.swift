/// Draws a ``Frame`` into a ``Grid`` of a window's size: a title bar, the search field, the heading, the page, and
/// a line of keys. A pure function: the same frame and size always give the same grid.
public enum FrameRenderer {
    /// The smallest window drawn; smaller ones get a one-line request to enlarge.
    public static let minimumSize = Size(columns: 40, rows: 10)
    /// Rows above the page: title bar, search field, heading.
    static let headerRows = 3

    /// The grid for a frame.
    public static func render(_ frame: Frame, size: Size) -> Grid {
        var grid = Grid(size: size)
        guard size.columns >= minimumSize.columns, size.rows >= minimumSize.rows else {
            grid.write(TextWidth.truncate("Enlarge the window (40×10 at least).", to: size.columns), row: 0, column: 0)
            return grid
        }
        titleBar(frame, into: &grid)
        searchField(frame, into: &grid)
        heading(frame, into: &grid)
        let page = pageArea(size)
        switch frame.body {
        case .list(let list): ListRenderer.draw(list, frame: frame, into: &grid, area: page)
        case .text(let text): TextRenderer.draw(text, frame: frame, into: &grid, area: page)
        case .status(let status): drawStatus(status, tick: frame.tick, into: &grid, area: page)
        }
        keyLine(frame, into: &grid)
        if frame.showsHelp {
            // An image would cover the help drawn over it.
            grid.removePlacements()
            HelpOverlay.draw(into: &grid, searchLabel: frame.searchLabel)
        }
        return grid
    }

    /// The rows between the heading and the key line.
    static func pageArea(_ size: Size) -> (top: Int, rows: Int) {
        (headerRows, max(0, size.rows - headerRows - 1))
    }

    /// How many list rows (or text lines) fit on a page, for Page Up and Page Down.
    public static func visibleRows(of body: Frame.Body, size: Size) -> Int {
        let rows = pageArea(size).rows
        if case .list(let list) = body { return max(1, rows / ListRenderer.rowHeight(list)) }
        return max(1, rows)
    }

    /// How far a text page can scroll in a window.
    public static func maximumScroll(
        of text: TextBody, size: Size, colors: ColorDepth, pictures: PictureMode = .blocks
    ) -> Int {
        let page = TextRenderer.page(text, width: size.columns, colors: colors, mode: pictures)
        return max(0, page.size.rows - pageArea(size).rows)
    }

    private static func titleBar(_ frame: Frame, into grid: inout Grid) {
        let width = grid.size.columns
        grid.fill(row: 0, style: .reverse)
        grid.write(" " + frame.title, row: 0, column: 0, style: CellStyle(bold: true, reverse: true))
        let right = frame.source + " "
        let column = width - TextWidth.of(right)
        if column > TextWidth.of(frame.title) + 2 { grid.write(right, row: 0, column: column, style: .reverse) }
    }

    private static func searchField(_ frame: Frame, into grid: inout Grid) {
        let label = " " + frame.searchLabel + ": "
        var column = grid.write(label, row: 1, column: 0, style: .bold)
        let room = grid.size.columns - column - 2
        if frame.query.isEmpty, !frame.searchFocused {
            grid.write("press / to type", row: 1, column: column, style: .dim, limit: room)
            return
        }
        // The end of a long query stays visible while it is typed.
        var shown = frame.query
        while TextWidth.of(shown) > room - 1, !shown.isEmpty { shown.removeFirst() }
        column = grid.write(shown, row: 1, column: column, style: .plain, limit: room)
        if frame.searchFocused { grid.write(" ", row: 1, column: column, style: .reverse) }
    }

    private static func heading(_ frame: Frame, into grid: inout Grid) {
        let width = grid.size.columns
        let progress = frame.progress.map { $0 + " " } ?? ""
        let room = width - 1 - TextWidth.of(progress) - 1
        grid.write(" " + TextWidth.truncate(frame.heading, to: max(1, room)), row: 2, column: 0, style: .bold)
        if !progress.isEmpty { grid.write(progress, row: 2, column: width - TextWidth.of(progress), style: .dim) }
    }

    private static func keyLine(_ frame: Frame, into grid: inout Grid) {
        let keys =
            frame.searchFocused
            ? "type to search  Enter done  Esc leave the field  Ctrl-C quit"
            : "↑↓ move  Enter open  Esc back  / search  r retry  ? help  q quit"
        grid.write(
            " " + TextWidth.truncate(keys, to: grid.size.columns - 2), row: grid.size.rows - 1, column: 0, style: .dim)
    }

    /// A status in the middle of an area: a spinner and what loads, a message, or a failure with how to retry.
    static func drawStatus(_ status: Frame.Status, tick: Int, into grid: inout Grid, area: (top: Int, rows: Int)) {
        let lines: [(String, CellStyle)]
        switch status {
        case .loading(let what): lines = [(spinner(tick) + " " + what, .plain)]
        case .empty(let message): lines = [(message, .plain)]
        case .hint(let message): lines = [(message, .dim)]
        case .failed(let message):
            lines = [(message, .bold), ("Press r to try again.", .dim)]
        }
        let width = grid.size.columns - 4
        let wrapped = lines.flatMap { text, style in TextWidth.wrap(text, to: width).map { ($0, style) } }
        let top = area.top + max(0, (area.rows - wrapped.count) / 2)
        for (offset, (line, style)) in wrapped.enumerated() where offset < area.rows {
            let column = max(0, (grid.size.columns - TextWidth.of(line)) / 2)
            grid.write(line, row: top + offset, column: column, style: style)
        }
    }

    /// The spinner's character for a tick.
    static func spinner(_ tick: Int) -> String {
        let frames = Array("⠋⠙⠹⠸⠼⠴⠦⠧⠇⠏")
        return String(frames[abs(tick) % frames.count])
    }
}
