import Foundation

/// The escape of iTerm2's inline images protocol that draws a picture over cells, from the cursor's cell.
///
/// The picture goes as a PNG file in base64, sized in cells and stretched to them (the cells were already chosen
/// with its proportions). The image belongs to the cells: writing over them removes it.
public enum ITermImage {
    /// The escape that shows `placement`.
    public static func show(_ placement: PicturePlacement) -> String {
        let file = PNGEncoding.data(placement.picture)
        let arguments =
            "inline=1;size=\(file.count);width=\(placement.size.columns);height=\(placement.size.rows)"
            + ";preserveAspectRatio=0;doNotMoveCursor=1"
        return "\u{1B}]1337;File=\(arguments):\(Data(file).base64EncodedString())\u{07}"
    }
}
