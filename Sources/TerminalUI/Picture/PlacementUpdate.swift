/// The escapes that bring the images on screen from one grid's placements to the next's: what is no longer there
/// is taken away before the cells are written, what is new is placed after them, and an image that stays where it
/// was is not sent again.
public enum PlacementUpdate {
    /// The bytes to write before the cell update and after it.
    public static func encode(from old: Grid?, to new: Grid, mode: PictureMode) -> (before: String, after: String) {
        guard mode == .kitty || mode == .iTerm else { return ("", "") }
        // After a resize the terminal's images are not where the grid would say; start again.
        let previous = old?.size == new.size ? old?.placements : nil
        var before = previous == nil && mode == .kitty ? KittyGraphics.deleteAll : ""
        for placement in previous ?? [] where !new.placements.contains(placement) {
            switch mode {
            case .kitty: before += KittyGraphics.delete(id: id(of: placement))
            default: before += blanks(over: placement)
            }
        }
        var after = ""
        for placement in new.placements where !(previous ?? []).contains(placement) {
            after += "\u{1B}[\(placement.row + 1);\(placement.column + 1)H"
            after += mode == .kitty ? KittyGraphics.show(placement, id: id(of: placement)) : ITermImage.show(placement)
        }
        return (before, after)
    }

    /// A number for a placement, the same for equal placements, never 0 (which kitty reserves).
    static func id(of placement: PicturePlacement) -> UInt32 {
        UInt32(truncatingIfNeeded: placement.hashValue) % 0x7FFF_FFFF + 1
    }

    /// Spaces over an inline image: its cells stay blank in the grid, so the cell update would not touch them.
    private static func blanks(over placement: PicturePlacement) -> String {
        let line = String(repeating: " ", count: placement.size.columns)
        var output = "\u{1B}[0m"
        for row in placement.rows { output += "\u{1B}[\(row + 1);\(placement.column + 1)H" + line }
        return output
    }
}
