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

    /// Forgets the fields (of an interim or redirect head), keeping the buffer.
    mutating func removeAll() {
        bytes.removeAll(keepingCapacity: true)
    }

    /// Appends one field.
    mutating func append(name: UnsafeBufferPointer<UInt8>.SubSequence, value: UnsafeBufferPointer<UInt8>.SubSequence) {
        if bytes.isEmpty { bytes.reserveCapacity(512) }
        bytes.append(contentsOf: name)
        bytes.append(UInt8(ascii: ":"))
        bytes.append(contentsOf: value)
        bytes.append(UInt8(ascii: "\n"))
    }

    /// Whether a field has this name (ASCII, compared without regard to case).
    func contains(_ name: StaticString) -> Bool {
        value(of: name) != nil
    }

    /// The value of the first field with this name (ASCII, compared without regard to case).
    func value(of name: StaticString) -> ArraySlice<UInt8>? {
        var result: ArraySlice<UInt8>?
        forEachField { fieldName, value in
            guard Self.equalsIgnoringCase(fieldName, name) else { return true }
            result = value
            return false
        }
        return result
    }

    /// Whether the first field with this name has this value (ASCII, compared without regard to case).
    func value(of name: StaticString, equals expected: StaticString) -> Bool {
        value(of: name).map { Self.equalsIgnoringCase($0, expected) } ?? false
    }

    /// The value of the first field with this name as a non-negative decimal number, or `nil`.
    func number(of name: StaticString) -> Int? {
        guard let digits = value(of: name), !digits.isEmpty, digits.count <= 18 else { return nil }
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

    private static func equalsIgnoringCase(_ bytes: ArraySlice<UInt8>, _ text: StaticString) -> Bool {
        guard bytes.count == text.utf8CodeUnitCount else { return false }
        return text.withUTF8Buffer { expected in
            zip(bytes, expected).allSatisfy { lowercased($0) == lowercased($1) }
        }
    }

    private static func lowercased(_ byte: UInt8) -> UInt8 {
        (UInt8(ascii: "A")...UInt8(ascii: "Z")).contains(byte) ? byte | 0x20 : byte
    }
}
