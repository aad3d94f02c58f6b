#if canImport(CCurl)
/// A response's header fields as bytes, collected on the loop thread and turned into ``HTTPHeaders`` by whoever takes
/// the response.
///
/// The loop thread is the transport's bottleneck under concurrency: every response passes through it. Making a
/// `String` for each name and value there measured as a tenth of its time; appending the bytes of each field to one
/// buffer costs a copy, and the strings are made by the caller's task instead, in parallel with the loop.
///
/// Fields are stored as `name:value\n`, the value trimmed; a name cannot contain `:` and a value cannot contain a line
/// break (libcurl hands over one line at a time), so the layout is unambiguous.
struct ResponseHead: Sendable {
    private var bytes: [UInt8] = []
    /// Whether a `Location` field came (a redirect can be followed).
    private(set) var hasLocation = false
    /// The first `Content-Length` as a non-negative number; `nil` when absent or not a number.
    private(set) var contentLength: Int?
    /// Whether the body arrives as sent: no `Content-Encoding`, or `identity`.
    private(set) var hasIdentityEncoding = true
    private var sawContentLength = false
    private var sawContentEncoding = false

    /// Forgets the fields (of an interim or redirect head), keeping the buffer.
    mutating func removeAll() {
        bytes.removeAll(keepingCapacity: true)
        hasLocation = false
        contentLength = nil
        hasIdentityEncoding = true
        sawContentLength = false
        sawContentEncoding = false
    }

    /// Appends one field, noting the few the loop thread decides on (redirect, body size, encoding) as it goes, so
    /// deciding needs no search.
    mutating func append(name: UnsafeBufferPointer<UInt8>.SubSequence, value: UnsafeBufferPointer<UInt8>.SubSequence) {
        if bytes.isEmpty { bytes.reserveCapacity(512) }
        let name = UnsafeBufferPointer(rebasing: name)
        let value = UnsafeBufferPointer(rebasing: value)
        bytes.append(contentsOf: name)
        bytes.append(UInt8(ascii: ":"))
        bytes.append(contentsOf: value)
        bytes.append(UInt8(ascii: "\n"))
        switch name.count {
        case 8 where Self.equalsIgnoringCase(name, "location"):
            hasLocation = true
        case 14 where !sawContentLength && Self.equalsIgnoringCase(name, "content-length"):
            sawContentLength = true
            contentLength = Self.decimal(value)
        case 16 where !sawContentEncoding && Self.equalsIgnoringCase(name, "content-encoding"):
            sawContentEncoding = true
            hasIdentityEncoding = Self.isIdentityCoding(value)
        default:
            break
        }
    }

    /// Whether a `Content-Encoding` value says the body is as sent (`identity`, in any case); the rule for heads
    /// collected here and for heads read from libcurl's store.
    static func isIdentityCoding<Bytes: Collection<UInt8>>(_ value: Bytes) -> Bool {
        equalsIgnoringCase(value, "identity")
    }

    /// Plain decimal digits as a number (at most 18 of them); `nil` for anything else.
    private static func decimal<Digits: Collection<UInt8>>(_ digits: Digits) -> Int? {
        guard !digits.isEmpty, digits.count <= 18 else { return nil }
        var number = 0
        for digit in digits {
            guard (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(digit) else { return nil }
            number = number * 10 + Int(digit - UInt8(ascii: "0"))
        }
        return number
    }

    /// The fields in order, as ``HTTPHeaders``.
    func headers() -> HTTPHeaders {
        var fields: [HTTPHeaders.Field] = []
        fields.reserveCapacity(16)
        forEachField { name, value in
            fields.append(HTTPHeaders.Field(
                name: String(decoding: name, as: UTF8.self), value: String(decoding: value, as: UTF8.self)))
            return true
        }
        return HTTPHeaders(fields)
    }

    /// Calls `body` with each field's name and value until it returns false.
    private func forEachField(_ body: (ArraySlice<UInt8>, ArraySlice<UInt8>) -> Bool) {
        var start = bytes.startIndex
        while start < bytes.endIndex {
            guard let colon = bytes[start...].firstIndex(of: UInt8(ascii: ":")),
                let end = bytes[colon...].firstIndex(of: UInt8(ascii: "\n"))
            else { return }
            guard body(bytes[start..<colon], bytes[(colon + 1)..<end]) else { return }
            start = end + 1
        }
    }

    private static func equalsIgnoringCase<Bytes: Collection<UInt8>>(_ bytes: Bytes, _ text: StaticString) -> Bool {
        guard bytes.count == text.utf8CodeUnitCount else { return false }
        return text.withUTF8Buffer { expected in
            zip(bytes, expected).allSatisfy { lowercased($0) == lowercased($1) }
        }
    }

    private static func lowercased(_ byte: UInt8) -> UInt8 {
        (UInt8(ascii: "A")...UInt8(ascii: "Z")).contains(byte) ? byte | 0x20 : byte
    }
}
#endif
