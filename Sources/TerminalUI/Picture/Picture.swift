/// A decoded picture: 8-bit RGB pixels, row after row.
public struct Picture: Hashable, Sendable {
    /// Width in pixels.
    public let width: Int
    /// Height in pixels.
    public let height: Int
    /// Three bytes (red, green, blue) per pixel, `width * 3` per row.
    public let pixels: [UInt8]

    /// Creates a picture; `nil` when the pixels do not fill the size.
    public init?(width: Int, height: Int, pixels: [UInt8]) {
        guard width > 0, height > 0, pixels.count == width * height * 3 else { return nil }
        self.width = width
        self.height = height
        self.pixels = pixels
    }

    /// The colour at a pixel.
    public func color(x: Int, y: Int) -> (UInt8, UInt8, UInt8) {
        let index = (y * width + x) * 3
        return (pixels[index], pixels[index + 1], pixels[index + 2])
    }

    /// The picture resampled to a size by averaging the source area under each target pixel (a box filter, exact
    /// for shrinking by any factor; enlarging repeats pixels).
    public func scaled(toWidth targetWidth: Int, height targetHeight: Int) -> Picture {
        guard targetWidth > 0, targetHeight > 0 else { return self }
        var result = [UInt8](repeating: 0, count: targetWidth * targetHeight * 3)
        for ty in 0..<targetHeight {
            let y0 = ty * height / targetHeight
            let y1 = max(y0 + 1, (ty + 1) * height / targetHeight)
            for tx in 0..<targetWidth {
                let x0 = tx * width / targetWidth
                let x1 = max(x0 + 1, (tx + 1) * width / targetWidth)
                var sum = (0, 0, 0)
                for y in y0..<y1 {
                    var index = (y * width + x0) * 3
                    for _ in x0..<x1 {
                        sum.0 += Int(pixels[index])
                        sum.1 += Int(pixels[index + 1])
                        sum.2 += Int(pixels[index + 2])
                        index += 3
                    }
                }
                let count = (y1 - y0) * (x1 - x0)
                let target = (ty * targetWidth + tx) * 3
                result[target] = UInt8(sum.0 / count)
                result[target + 1] = UInt8(sum.1 / count)
                result[target + 2] = UInt8(sum.2 / count)
            }
        }
        return Picture(width: targetWidth, height: targetHeight, pixels: result) ?? self
    }

    /// The largest size with the picture's proportions that fits in a box of cells, each cell a half-block of two
    /// pixels, one above the other (cells are about twice as tall as wide, so a pixel is about square).
    public func cellSize(fitting box: Size) -> Size {
        guard box.columns > 0, box.rows > 0 else { return Size(columns: 0, rows: 0) }
        let byWidth = (columns: box.columns, rows: max(1, (box.columns * height + width) / (2 * width)))
        if byWidth.rows <= box.rows { return Size(columns: byWidth.columns, rows: byWidth.rows) }
        return Size(columns: max(1, box.rows * 2 * width / height), rows: box.rows)
    }
}
