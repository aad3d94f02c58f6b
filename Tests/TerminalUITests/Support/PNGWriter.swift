import Foundation

/// Writes tiny PNG files for the decoder's tests: zlib "stored" blocks (no compression) and real CRCs, so no
/// encoder library is needed.
enum PNGWriter {
    static func png(width: Int, height: Int, colorType: UInt8, rows: [[UInt8]]) -> Data {
        var raw: [UInt8] = []
        for row in rows { raw += [0] + row }
        var zlib: [UInt8] = [0x78, 0x01, 0x01]
        let length = UInt16(raw.count)
        zlib += [UInt8(length & 0xFF), UInt8(length >> 8), UInt8(~length & 0xFF), UInt8(~length >> 8)]
        zlib += raw
        zlib += bigEndian(adler32(raw))
        var file: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]
        file += chunk("IHDR", bigEndian(UInt32(width)) + bigEndian(UInt32(height)) + [8, colorType, 0, 0, 0])
        file += chunk("IDAT", zlib)
        file += chunk("IEND", [])
        return Data(file)
    }

    private static func chunk(_ kind: String, _ data: [UInt8]) -> [UInt8] {
        let body = Array(kind.utf8) + data
        return bigEndian(UInt32(data.count)) + body + bigEndian(crc32(body))
    }

    private static func bigEndian(_ value: UInt32) -> [UInt8] {
        [UInt8(value >> 24), UInt8((value >> 16) & 0xFF), UInt8((value >> 8) & 0xFF), UInt8(value & 0xFF)]
    }

    private static func adler32(_ bytes: [UInt8]) -> UInt32 {
        var a: UInt32 = 1
        var b: UInt32 = 0
        for byte in bytes {
            a = (a + UInt32(byte)) % 65521
            b = (b + a) % 65521
        }
        return (b << 16) | a
    }

    private static func crc32(_ bytes: [UInt8]) -> UInt32 {
        var crc: UInt32 = 0xFFFF_FFFF
        for byte in bytes {
            crc ^= UInt32(byte)
            for _ in 0..<8 { crc = crc & 1 == 1 ? (crc >> 1) ^ 0xEDB8_8320 : crc >> 1 }
        }
        return ~crc
    }
}
