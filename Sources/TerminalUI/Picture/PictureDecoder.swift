import Foundation

#if canImport(CJPEG)
import CJPEG
#endif
#if canImport(CPNG)
import CPNG
#endif

/// Decodes JPEG (libjpeg-turbo) and PNG (libpng) pictures, recognised by their first bytes.
///
/// Where the package is built without the decoders (a Mac without Homebrew's `jpeg-turbo` and `libpng`, built with
/// `ERRAND_NO_PICTURES=1`; iOS), ``isAvailable`` is `false`, every picture decodes to `nil`, and the screens show a
/// labelled placeholder instead.
public enum PictureDecoder {
    /// Whether this build can decode pictures at all.
    public static var isAvailable: Bool {
        #if canImport(CJPEG) && canImport(CPNG)
        return true
        #else
        return false
        #endif
    }

    /// The picture in `data`, or `nil` when it is neither a JPEG nor a PNG the libraries can read.
    /// - Parameter minimumSide: the decoder may shrink a large JPEG while decoding, keeping at least this many
    ///   pixels on its shorter side.
    public static func decode(_ data: Data, minimumSide: Int = 64) -> Picture? {
        let bytes = [UInt8](data)
        if bytes.starts(with: [0xFF, 0xD8, 0xFF]) { return jpeg(bytes, minimumSide: minimumSide) }
        if bytes.starts(with: [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]) { return png(bytes) }
        return nil
    }

    private static func jpeg(_ bytes: [UInt8], minimumSide: Int) -> Picture? {
        #if canImport(CJPEG)
        var width: Int32 = 0
        var height: Int32 = 0
        let decoded = bytes.withUnsafeBufferPointer { buffer in
            errand_jpeg_decode(buffer.baseAddress, UInt(buffer.count), Int32(minimumSide), &width, &height)
        }
        return picture(decoded, width: width, height: height)
        #else
        return nil
        #endif
    }

    private static func png(_ bytes: [UInt8]) -> Picture? {
        #if canImport(CPNG)
        var width: Int32 = 0
        var height: Int32 = 0
        let decoded = bytes.withUnsafeBufferPointer { buffer in
            errand_png_decode(buffer.baseAddress, UInt(buffer.count), &width, &height)
        }
        return picture(decoded, width: width, height: height)
        #else
        return nil
        #endif
    }

    private static func picture(_ pixels: UnsafeMutablePointer<UInt8>?, width: Int32, height: Int32) -> Picture? {
        guard let pixels else { return nil }
        defer { free(pixels) }
        let count = Int(width) * Int(height) * 3
        return Picture(
            width: Int(width), height: Int(height), pixels: Array(UnsafeBufferPointer(start: pixels, count: count)))
    }
}
