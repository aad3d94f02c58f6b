/// A picture drawn with cells: each cell the upper half block `▀`, its foreground the upper pixel and its background
/// the lower one, so one cell shows two pixels in 24-bit colour (or the nearest of the 256-colour palette). With a
/// graphics protocol the cells stay blank and the picture is placed over them as an image.
public enum PictureCells {
    /// The most pixels an image sends per cell (a column's width, half a row's height): sharp on any common font
    /// size, and a thumbnail stays a few kilobytes.
    static let pixelsPerCell = 16

    /// Draws `picture` fitted into a box of `grid` with its top-left corner at `origin`; returns the cells used.
    @discardableResult
    public static func draw(
        _ picture: Picture, in grid: inout Grid, row: Int, column: Int, box: Size, mode: PictureMode = .blocks
    ) -> Size {
        let size = picture.cellSize(fitting: box)
        guard size.columns > 0, size.rows > 0 else { return size }
        if mode == .kitty || mode == .iTerm {
            let limit = (columns: size.columns * pixelsPerCell, rows: size.rows * 2 * pixelsPerCell)
            let sent =
                picture.width > limit.columns || picture.height > limit.rows
                ? picture.scaled(toWidth: limit.columns, height: limit.rows) : picture
            grid.place(PicturePlacement(picture: sent, row: row, column: column, size: size))
            return size
        }
        let scaled = picture.scaled(toWidth: size.columns, height: size.rows * 2)
        for y in 0..<size.rows {
            for x in 0..<size.columns {
                let top = scaled.color(x: x, y: 2 * y)
                let bottom = scaled.color(x: x, y: 2 * y + 1)
                let style = CellStyle(
                    foreground: .rgb(top.0, top.1, top.2), background: .rgb(bottom.0, bottom.1, bottom.2))
                grid.set(Cell("▀", style: style), row: row + y, column: column + x)
            }
        }
        return size
    }
}
