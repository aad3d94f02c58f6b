import Foundation

/// One part of a `multipart/form-data` body (RFC 7578): a text field, a file streamed from disk, or bytes in memory.
///
/// ```swift
/// let body = RequestBody.multipart([
///     .field(name: "title", value: "Lunch"),
///     .file(name: "photo", url: photoURL, contentType: "image/jpeg"),
/// ])
/// ```
///
/// Names and filenames may hold any text, non-ASCII included: they are sent as UTF-8 inside quotes, with `"`, CR and
/// LF written `%22`, `%0D` and `%0A`, as HTML's form submission does (RFC 7578 §4.2 and §5.1).
public struct MultipartPart: Sendable, Hashable {
    enum Content: Sendable, Hashable {
        case bytes(Data)
        case file(URL)
    }

    /// The form field's name.
    public let name: String
    /// The filename the server sees, or `nil` for a plain field.
    public let filename: String?
    /// The part's `Content-Type`, or `nil` for a text field (which RFC 7578 reads as `text/plain`).
    public let contentType: String?
    let content: Content

    /// A text field, sent as UTF-8 without a `Content-Type`.
    public static func field(name: String, value: String) -> MultipartPart {
        MultipartPart(name: name, filename: nil, contentType: nil, content: .bytes(Data(value.utf8)))
    }

    /// A file read from disk while it is sent, never held in memory whole.
    ///
    /// `filename` defaults to the file's last path component. The file is opened and measured when the request is
    /// sent: a missing or unreadable file, or one whose size changes during the upload, fails the request with
    /// ``ErrandError/invalidRequest(_:)`` naming the file.
    public static func file(
        name: String, url: URL, filename: String? = nil, contentType: String = "application/octet-stream"
    ) -> MultipartPart {
        MultipartPart(
            name: name, filename: filename ?? url.lastPathComponent, contentType: contentType, content: .file(url))
    }

    /// Bytes in memory, sent as a file part when `filename` is given.
    public static func data(
        name: String, data: Data, filename: String? = nil, contentType: String = "application/octet-stream"
    ) -> MultipartPart {
        MultipartPart(name: name, filename: filename, contentType: contentType, content: .bytes(data))
    }

    /// The part's header block: `Content-Disposition`, `Content-Type` when it has one, and the blank line.
    var headerBlock: Data {
        var text = "Content-Disposition: form-data; name=\"\(Self.escaped(name))\""
        if let filename { text += "; filename=\"\(Self.escaped(filename))\"" }
        text += "\r\n"
        if let contentType { text += "Content-Type: \(contentType)\r\n" }
        text += "\r\n"
        return Data(text.utf8)
    }

    /// A name or filename as it goes between quotes: `"`, CR and LF percent-escaped, everything else as UTF-8.
    static func escaped(_ text: String) -> String {
        var result = ""
        result.unicodeScalars.reserveCapacity(text.unicodeScalars.count)
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\"": result += "%22"
            case "\r": result += "%0D"
            case "\n": result += "%0A"
            default: result.unicodeScalars.append(scalar)
            }
        }
        return result
    }
}

/// A `multipart/form-data` body: its parts and the boundary between them.
///
/// The boundary is `errand-` and 32 random letters and digits (190 random bits). It is checked against every part held
/// in memory when the body is made (a clash picks another), and against every file's bytes as they are read: a file
/// that contains it fails the request before the boundary reaches the wire, so a sent body can always be split
/// correctly.
public struct MultipartBody: Sendable, Hashable {
    /// The parts, in the order they are sent.
    public let parts: [MultipartPart]
    /// The boundary between the parts.
    public let boundary: String

    /// A body with a fresh boundary that occurs in none of the in-memory parts.
    public init(parts: [MultipartPart]) {
        var boundary = Self.randomBoundary()
        while Self.clashes(boundary, with: parts) { boundary = Self.randomBoundary() }
        self.init(parts: parts, boundary: boundary)
    }

    /// A body with a given boundary (tests need a fixed one); it must be 1–70 of RFC 2046's boundary characters.
    init(parts: [MultipartPart], boundary: String) {
        self.parts = parts
        self.boundary = boundary
    }

    /// `multipart/form-data; boundary=…`.
    public var contentType: String { "multipart/form-data; boundary=\(boundary)" }

    /// Why the body cannot be sent as it stands (a part's header text breaks the header block), or `nil`.
    var problem: String? {
        if boundary.isEmpty || boundary.utf8.count > 70 || !boundary.utf8.allSatisfy(Self.isBoundaryCharacter) {
            return "the multipart boundary \"\(boundary)\" is not 1–70 letters, digits or '()+_,-./:=?"
        }
        for part in parts {
            if let contentType = part.contentType,
                contentType.utf8.contains(where: { $0 == 0x0D || $0 == 0x0A || $0 == 0 })
            {
                return "the Content-Type of the multipart part \"\(part.name)\" contains a line break."
            }
            if case .file(let url) = part.content, !url.isFileURL {
                return "the multipart part \"\(part.name)\" names \(url.absoluteString), which is not a file URL."
            }
        }
        return nil
    }

    /// The bytes before a part's content: the delimiter (after the previous part's CRLF) and the part's headers.
    func opening(of index: Int) -> Data {
        var data = Data((index == 0 ? "--\(boundary)\r\n" : "\r\n--\(boundary)\r\n").utf8)
        data.append(parts[index].headerBlock)
        return data
    }

    /// The closing delimiter; an empty body is the closing delimiter alone.
    var closing: Data { Data((parts.isEmpty ? "--\(boundary)--\r\n" : "\r\n--\(boundary)--\r\n").utf8) }

    private static let alphabet = Array("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789".utf8)

    private static func randomBoundary() -> String {
        var generator = SystemRandomNumberGenerator()
        let letters = (0..<32).map { _ in alphabet[Int(generator.next(upperBound: UInt(alphabet.count)))] }
        return "errand-" + String(decoding: letters, as: UTF8.self)
    }

    private static func clashes(_ boundary: String, with parts: [MultipartPart]) -> Bool {
        let needle = Data(boundary.utf8)
        return parts.contains { part in
            if Data(part.headerBlock).range(of: needle) != nil { return true }
            if case .bytes(let data) = part.content { return data.range(of: needle) != nil }
            return false
        }
    }

    private static func isBoundaryCharacter(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"),
            UInt8(ascii: "0")...UInt8(ascii: "9"):
            return true
        default:
            return "'()+_,-./:=?".utf8.contains(byte)
        }
    }
}
