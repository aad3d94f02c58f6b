/// Reads the few DER structures (ITU-T X.690) a public-key pin needs: tag, length and contents, nothing decoded
/// beyond that.
///
/// Certificates come from servers, so every length is checked against the bytes that are there, indefinite and
/// over-long lengths are refused (DER allows neither), and nesting is followed only as deep as asked: a hostile
/// certificate gives a ``DERError``, never a trap.
struct DERReader {
    /// One element: its tag byte, where its whole encoding sits and where its contents sit.
    struct Element: Equatable {
        /// The identifier octet (class, constructed bit and tag number below 31).
        let tag: UInt8
        /// The whole element, header included, as indices into the reader's bytes.
        let encoding: Range<Int>
        /// The contents, without the header.
        let contents: Range<Int>
    }

    static let sequence: UInt8 = 0x30
    static let integer: UInt8 = 0x02
    /// `[0] EXPLICIT`, the tag of a certificate's version.
    static let contextZero: UInt8 = 0xA0

    let bytes: [UInt8]
    private(set) var position: Int
    let end: Int

    /// A reader over all of `bytes`.
    init(_ bytes: [UInt8]) {
        self.init(bytes, range: 0..<bytes.count)
    }

    private init(_ bytes: [UInt8], range: Range<Int>) {
        self.bytes = bytes
        position = range.lowerBound
        end = range.upperBound
    }

    var isAtEnd: Bool { position >= end }

    /// The next element, moving past it.
    mutating func next() throws(DERError) -> Element {
        let start = position
        guard position < end else { throw .truncated }
        let tag = bytes[position]
        // High tag numbers (0x1F) are never used by the structures read here.
        guard tag & 0x1F != 0x1F else { throw .unsupportedTag(tag) }
        position += 1
        guard position < end else { throw .truncated }
        let first = bytes[position]
        position += 1
        var length = 0
        if first < 0x80 {
            length = Int(first)
        } else {
            let count = Int(first & 0x7F)
            // 0x80 is BER's indefinite length; more than four length octets would describe gigabytes.
            guard count > 0 else { throw .indefiniteLength }
            guard count <= 4 else { throw .lengthTooLong }
            guard end - position >= count else { throw .truncated }
            for _ in 0..<count {
                length = length << 8 | Int(bytes[position])
                position += 1
            }
            guard length >= 0x80, count == 1 || bytes[position - count] != 0 else { throw .nonMinimalLength }
        }
        guard length <= end - position else { throw .truncated }
        let contents = position..<(position + length)
        position += length
        return Element(tag: tag, encoding: start..<position, contents: contents)
    }

    /// The next element, which must carry `tag`.
    mutating func next(_ tag: UInt8) throws(DERError) -> Element {
        let element = try next()
        guard element.tag == tag else { throw .unexpectedTag(expected: tag, found: element.tag) }
        return element
    }

    /// The tag of the next element, without moving.
    var peekTag: UInt8? { isAtEnd ? nil : bytes[position] }

    /// A reader over a constructed element's contents.
    func contents(of element: Element) -> DERReader {
        DERReader(bytes, range: element.contents)
    }
}

/// Why bytes are not the DER a certificate must be.
enum DERError: Error, Equatable, CustomStringConvertible {
    case truncated
    case indefiniteLength
    case lengthTooLong
    case nonMinimalLength
    case unsupportedTag(UInt8)
    case unexpectedTag(expected: UInt8, found: UInt8)
    case trailingBytes

    var description: String {
        switch self {
        case .truncated: return "it ends inside an element"
        case .indefiniteLength: return "it uses an indefinite length, which DER forbids"
        case .lengthTooLong: return "it declares a length over four bytes long"
        case .nonMinimalLength: return "it writes a length in more bytes than DER allows"
        case .unsupportedTag(let tag): return "it uses the multi-byte tag \(tag)"
        case .unexpectedTag(let expected, let found): return "it has tag \(found) where \(expected) belongs"
        case .trailingBytes: return "it has bytes after the certificate"
        }
    }
}
