/// A picture as a PNG file, for protocols that take an image file: 8-bit RGB, deflate's stored (uncompressed)
/// blocks, which every decoder reads and which cost no time to make.
enum PNGEncoding {
    static func data(_ picture: Picture) -> [UInt8] {
        var header: [UInt8] = []
        header += bigEndian(UInt32(picture.width)) + bigEndian(UInt32(picture.height))
        header += [8, 2, 0, 0, 0]
        var raw: [UInt8] = []
        raw.reserveCapacity((picture.width * 3 + 1) * picture.height)
        let stride = picture.width * 3
        for y in 0..<picture.height {
            // Filter type 0: the row as it is.
            raw.append(0)
            raw += picture.pixels[(y * stride)..<((y + 1) * stride)]
        }
        var file: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]
        file += chunk("IHDR", header) + chunk("IDAT", zlibStored(raw)) + chunk("IEND", [])
        return file
    }

    private static func zlibStored(_ bytes: [UInt8]) -> [UInt8] {
        var output: [UInt8] = [0x78, 0x01]
        var offset = 0
        repeat {
            let count = min(65_535, bytes.count - offset)
            let last: UInt8 = offset + count == bytes.count ? 1 : 0
            let length = UInt16(count)
            output += [last, UInt8(length & 0xFF), UInt8(length >> 8), UInt8(~length & 0xFF), UInt8(~length >> 8)]
            output += bytes[offset..<(offset + count)]
            offset += count
        } while offset < bytes.count
        return output + bigEndian(adler32(bytes))
    }

    private static func chunk(_ type: String, _ body: [UInt8]) -> [UInt8] {
        let typed = Array(type.utf8) + body
        return bigEndian(UInt32(body.count)) + typed + bigEndian(crc32(typed))
    }

    static func crc32(_ bytes: [UInt8]) -> UInt32 {
        var crc: UInt32 = 0xFFFF_FFFF
        for byte in bytes {
            crc ^= UInt32(byte)
            for _ in 0..<8 { crc = crc & 1 == 1 ? (crc >> 1) ^ 0xEDB8_8320 : crc >> 1 }
        }
        return ~crc
    }

    static func adler32(_ bytes: [UInt8]) -> UInt32 {
        var a: UInt32 = 1
        var b: UInt32 = 0
        for byte in bytes {
            a = (a + UInt32(byte)) % 65_521
            b = (b + a) % 65_521
        }
        return b << 16 | a
    }

    private static func bigEndian(_ value: UInt32) -> [UInt8] {
        [UInt8(value >> 24), UInt8((value >> 16) & 0xFF), UInt8((value >> 8) & 0xFF), UInt8(value & 0xFF)]
    }
}
