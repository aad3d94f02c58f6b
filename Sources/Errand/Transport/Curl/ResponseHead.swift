#if canImport(CCurl)
/// A response's head as one byte buffer, filled line by line from libcurl's header callback on the loop thread and
/// turned into ``HTTPHeaders`` only by whoever takes the response.
///
/// This is the one way a head is read. Each line costs a copy into the buffer and a look at its name's length: the
/// loop thread, which every response passes through, makes no `String`, and reading the whole head is linear in its
/// size (libcurl's own header store, `curl_easy_nextheader`, is quadratic: ~70,000 short fields took 47 s). A head
/// larger than ``sizeLimit`` is refused as a bad response before it is read further.
///
/// Fields are stored as `name:value\n`, the value trimmed; a name cannot contain `:` and a value cannot contain a line
/// break (libcurl hands over one line at a time), so the layout is unambiguous.
struct ResponseHead: Sendable {
    /// The most bytes of head lines (status lines and fields, interim heads included) a hop may send: 256 KiB, about
    /// ten times the largest heads seen from real services (long `Set-Cookie` and `Content-Security-Policy` fields),
    /// and less than libcurl 8's own 300 KB limit.
    static let sizeLimit = 256 * 1024
    /// The largest `Content-Length` read as such: 2^62 bytes, past every size cap. A longer number counts as this, so
    /// it fails a capped body at once and never overflows a sum.
    static let largestContentLength = 1 << 62

    /// What a line meant.
    enum Line: Equatable {
        /// A status line or a field of a head still being read.
        case partOfHead
        /// The blank line ending an interim (1xx) head; the final head comes next.
        case interimHeadEnded
        /// The blank line ending the final head.
        case finalHeadEnded
        /// The hop's head lines exceed ``sizeLimit``.
        case tooLarge
    }

    private var bytes: [UInt8] = []
    /// The status of the head being read (of the final head once it ended); 0 before a status line.
    private(set) var status = 0
    /// The first `Content-Length` as a non-negative number, at most ``largestContentLength``; `nil` when absent or not
    /// a number.
    private(set) var contentLength: Int?
    /// Whether the body arrives as sent: no `Content-Encoding`, or `identity`.
    private(set) var hasIdentityEncoding = true
    /// Whether any `Content-Encoding` field came, so the loop looks for their values only then.
    var hasContentEncoding: Bool { sawContentEncoding }
    private var sawContentLength = false
    private var sawContentEncoding = false
    /// Bytes of head lines this hop, interim heads included.
    private var received = 0

    /// Forgets everything (a new hop starts).
    mutating func removeAll() {
        forgetFields()
        status = 0
        received = 0
    }

    private mutating func forgetFields() {
        bytes.removeAll(keepingCapacity: true)
        contentLength = nil
        hasIdentityEncoding = true
        sawContentLength = false
        sawContentEncoding = false
    }

    /// Takes one line of a head as libcurl hands it over (with its line break).
    mutating func take(line: UnsafeRawBufferPointer) -> Line {
        received += line.count
        guard received <= Self.sizeLimit else { return .tooLarge }
        let bytes = line.assumingMemoryBound(to: UInt8.self)
        var end = bytes.count
        while end > 0, bytes[end - 1] == Byte.lineFeed || bytes[end - 1] == Byte.carriageReturn { end -= 1 }
        if end == 0 {
            if (100..<200).contains(status) {
                forgetFields()
                return .interimHeadEnded
            }
            return .finalHeadEnded
        }
        if end > 5, bytes[0] == UInt8(ascii: "H"), bytes[1] == UInt8(ascii: "T"), bytes[2] == UInt8(ascii: "T"),
            bytes[3] == UInt8(ascii: "P"), bytes[4] == UInt8(ascii: "/")
        {
            // A new head: "HTTP/1.1 200 OK", "HTTP/2 200".
            status = Self.statusCode(in: bytes[..<end])
            forgetFields()
            return .partOfHead
        }
        // A line without a colon (an obsolete folded continuation) carries no field of its own.
        guard let colon = bytes[..<end].firstIndex(of: UInt8(ascii: ":")) else { return .partOfHead }
        var valueStart = colon + 1
        var valueEnd = end
        while valueStart < valueEnd, Byte.isSpace(bytes[valueStart]) { valueStart += 1 }
        while valueEnd > valueStart, Byte.isSpace(bytes[valueEnd - 1]) { valueEnd -= 1 }
        append(name: bytes[..<colon], value: bytes[valueStart..<valueEnd])
        return .partOfHead
    }

    /// Appends one field, noting the few the loop decides on (redirect, body size, encoding) as it goes, so deciding
    /// needs no search.
    mutating func append(name: UnsafeBufferPointer<UInt8>.SubSequence, value: UnsafeBufferPointer<UInt8>.SubSequence) {
        if bytes.isEmpty { bytes.reserveCapacity(512) }
        let name = UnsafeBufferPointer(rebasing: name)
        let value = UnsafeBufferPointer(rebasing: value)
        bytes.append(contentsOf: name)
        bytes.append(UInt8(ascii: ":"))
        bytes.append(contentsOf: value)
        bytes.append(UInt8(ascii: "\n"))
        switch name.count {
        case 14 where !sawContentLength && Self.equalsIgnoringCase(name, "content-length"):
            sawContentLength = true
            contentLength = ServerNumber.digits(value, clampedTo: Int64(Self.largestContentLength)).map { Int($0) }
        case 16 where Self.equalsIgnoringCase(name, "content-encoding"):
            // Later fields add codings: the body is as sent only when every one says identity.
            hasIdentityEncoding =
                (sawContentEncoding ? hasIdentityEncoding : true) && Self.equalsIgnoringCase(value, "identity")
            sawContentEncoding = true
        default:
            break
        }
    }

    /// The fields in order, as ``HTTPHeaders``: one pass over the buffer. Repeated lines stay apart, as sent
    /// (`Set-Cookie` needs them so); the cache joins them as URLSession does when it stores a response.
    func headers() -> HTTPHeaders {
        var fields: [HTTPHeaders.Field] = []
        fields.reserveCapacity(16)
        var start = bytes.startIndex
        while start < bytes.endIndex {
            guard let colon = bytes[start...].firstIndex(of: UInt8(ascii: ":")),
                let end = bytes[colon...].firstIndex(of: UInt8(ascii: "\n"))
            else { break }
            fields.append(
                HTTPHeaders.Field(
                    name: String(decoding: bytes[start..<colon], as: UTF8.self),
                    value: String(decoding: bytes[(colon + 1)..<end], as: UTF8.self)))
            start = end + 1
        }
        return HTTPHeaders(fields)
    }

    /// The values of every field called `name` (any case), in order, without making the other fields' strings.
    func values(of name: StaticString) -> [[UInt8]] {
        var found: [[UInt8]] = []
        var start = bytes.startIndex
        while start < bytes.endIndex {
            guard let colon = bytes[start...].firstIndex(of: UInt8(ascii: ":")),
                let end = bytes[colon...].firstIndex(of: UInt8(ascii: "\n"))
            else { break }
            if Self.equalsIgnoringCase(bytes[start..<colon], name) { found.append(Array(bytes[(colon + 1)..<end])) }
            start = end + 1
        }
        return found
    }

    /// The three digits after the first space of a status line, or 0.
    private static func statusCode(in line: Slice<UnsafeBufferPointer<UInt8>>) -> Int {
        guard let space = line.firstIndex(of: UInt8(ascii: " ")) else { return 0 }
        var code = 0
        var index = space + 1
        while index < line.endIndex, index < space + 4, (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(line[index]) {
            code = code * 10 + Int(line[index] - UInt8(ascii: "0"))
            index += 1
        }
        return code
    }

    static func equalsIgnoringCase<Bytes: Collection<UInt8>>(_ bytes: Bytes, _ text: StaticString) -> Bool {
        guard bytes.count == text.utf8CodeUnitCount else { return false }
        return text.withUTF8Buffer { expected in
            zip(bytes, expected).allSatisfy { lowercased($0) == lowercased($1) }
        }
    }

    private static func lowercased(_ byte: UInt8) -> UInt8 {
        (UInt8(ascii: "A")...UInt8(ascii: "Z")).contains(byte) ? byte | 0x20 : byte
    }
}

/// Bytes that delimit header lines and values.
private enum Byte {
    static let lineFeed = UInt8(ascii: "\n")
    static let carriageReturn = UInt8(ascii: "\r")

    static func isSpace(_ byte: UInt8) -> Bool { byte == UInt8(ascii: " ") || byte == UInt8(ascii: "\t") }
}
#endif
