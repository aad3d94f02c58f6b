/// A picture shown as an image over a rectangle of a grid's cells, which the grid keeps blank under it.
public struct PicturePlacement: Hashable, Sendable {
    /// The picture, at the resolution sent to the terminal.
    public var picture: Picture
    /// The top row.
    public var row: Int
    /// The left column.
    public var column: Int
    /// The cells it covers.
    public var size: Size

    /// Creates a placement.
    public init(picture: Picture, row: Int, column: Int, size: Size) {
        self.picture = picture
        self.row = row
        self.column = column
        self.size = size
    }

    /// The rows it covers.
    var rows: Range<Int> { row..<(row + size.rows) }
}
