/// RFC 3986 percent-encoding.
///
/// Only the unreserved set (`A–Z a–z 0–9 - . _ ~`) is left as is; every other byte of the UTF-8 form is written
/// as `%XX`. That is stricter than Foundation's `URLComponents`, which leaves `+`, `&` in paths, `;` and `,` alone —
/// the characters servers disagree about.
enum PercentEncoding {
    private static let hexDigits = Array("0123456789ABCDEF".utf8)

    static func isUnreserved(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "a")...UInt8(ascii: "z"),
            UInt8(ascii: "0")...UInt8(ascii: "9"),
            UInt8(ascii: "-"), UInt8(ascii: "."), UInt8(ascii: "_"), UInt8(ascii: "~"):
            return true
        default:
            return false
        }
    }

    /// Encodes every byte outside the unreserved set.
    static func encode(_ string: Substring) -> String {
        string.utf8.allSatisfy(isUnreserved) ? String(string) : encode(String(string))
    }

    /// Encodes every byte outside the unreserved set.
    static func encode(_ string: String) -> String {
        // Most path segments and query values need no escaping: return them as they are, without building a copy.
        if string.utf8.allSatisfy(isUnreserved) { return string }
        var bytes: [UInt8] = []
        bytes.reserveCapacity(string.utf8.count)
        for byte in string.utf8 { append(byte, to: &bytes) }
        return String(decoding: bytes, as: UTF8.self)
    }

    /// Appends one byte, encoded when it is outside the unreserved set.
    static func append(_ byte: UInt8, to bytes: inout [UInt8]) {
        if isUnreserved(byte) {
            bytes.append(byte)
        } else {
            bytes.append(UInt8(ascii: "%"))
            bytes.append(hexDigits[Int(byte >> 4)])
            bytes.append(hexDigits[Int(byte & 0x0F)])
        }
    }

    /// Decodes `%XX` sequences; returns `nil` for a malformed sequence or bytes that are not UTF-8.
    static func decode(_ string: String) -> String? {
        var bytes: [UInt8] = []
        var iterator = string.utf8.makeIterator()
        while let byte = iterator.next() {
            guard byte == UInt8(ascii: "%") else {
                bytes.append(byte)
                continue
            }
            guard let high = iterator.next().flatMap(hexValue), let low = iterator.next().flatMap(hexValue) else {
                return nil
            }
            bytes.append(high << 4 | low)
        }
        return String(validating: bytes, as: UTF8.self)
    }

    private static func hexValue(_ byte: UInt8) -> UInt8? {
        switch byte {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): return byte - UInt8(ascii: "0")
        case UInt8(ascii: "A")...UInt8(ascii: "F"): return byte - UInt8(ascii: "A") + 10
        case UInt8(ascii: "a")...UInt8(ascii: "f"): return byte - UInt8(ascii: "a") + 10
        default: return nil
        }
    }
}
