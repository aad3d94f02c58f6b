import Foundation

/// The escapes of the kitty graphics protocol that place a picture over cells and take it away again.
///
/// A picture is sent as raw RGB (`f=24`) in one base64 stream cut into pieces of at most ``chunkSize`` characters;
/// only the first piece carries the keys, every piece but the last says `m=1`. `q=2` keeps the terminal from
/// answering on the input, where its reply would read as keys; `C=1` leaves the cursor where the cells put it.
public enum KittyGraphics {
    /// The most base64 characters in one escape.
    public static let chunkSize = 4096

    /// The escapes that show `placement` with image number `id`, starting at the cursor's cell.
    public static func show(_ placement: PicturePlacement, id: UInt32) -> String {
        let picture = placement.picture
        let payload = Data(picture.pixels).base64EncodedString()
        let keys =
            "a=T,f=24,s=\(picture.width),v=\(picture.height),c=\(placement.size.columns),r=\(placement.size.rows)"
            + ",C=1,i=\(id),q=2"
        var output = ""
        var start = payload.startIndex
        repeat {
            let end = payload.index(start, offsetBy: chunkSize, limitedBy: payload.endIndex) ?? payload.endIndex
            let more = end < payload.endIndex ? 1 : 0
            let control = start == payload.startIndex ? keys + ",m=\(more)" : "m=\(more)"
            output += "\u{1B}_G\(control);\(payload[start..<end])\u{1B}\\"
            start = end
        } while start < payload.endIndex
        return output
    }

    /// The escape that removes image `id` and frees its data in the terminal.
    public static func delete(id: UInt32) -> String {
        "\u{1B}_Ga=d,d=I,i=\(id),q=2\u{1B}\\"
    }

    /// The escape that removes every image on the screen (after a resize, when what shows is not known).
    public static let deleteAll = "\u{1B}_Ga=d,d=A,q=2\u{1B}\\"
}
