/// An ordered list of HTTP header fields with case-insensitive lookup.
///
/// Order is kept as given, and a name may appear more than once (as `Set-Cookie` does).
/// Subscript assignment replaces every field of that name.
public struct HTTPHeaders: Sendable, Hashable, Sequence, ExpressibleByDictionaryLiteral, CustomStringConvertible {
    /// One header field.
    public struct Field: Sendable, Hashable {
        /// The field name as given (lookups ignore case).
        public var name: String
        /// The field value.
        public var value: String

        /// Creates a field.
        public init(name: String, value: String) {
            self.name = name
            self.value = value
        }
    }

    /// The fields in order.
    public private(set) var fields: [Field]

    /// Creates headers from fields, keeping their order.
    public init(_ fields: [Field] = []) { self.fields = fields }

    /// Creates headers from a dictionary literal, keeping the literal's order.
    public init(dictionaryLiteral elements: (String, String)...) {
        fields = elements.map { Field(name: $0.0, value: $0.1) }
    }

    /// The first value of the named field, or `nil`; setting replaces every field of that name
    /// (setting `nil` removes them).
    public subscript(name: String) -> String? {
        get { fields.first { $0.name.caseInsensitiveEquals(name) }?.value }
        set {
            guard let newValue else {
                remove(name)
                return
            }
            guard let index = fields.firstIndex(where: { $0.name.caseInsensitiveEquals(name) }) else {
                fields.append(Field(name: name, value: newValue))
                return
            }
            var replaced = fields
            replaced[index].value = newValue
            fields = replaced.enumerated()
                .filter { $0.offset <= index || !$0.element.name.caseInsensitiveEquals(name) }
                .map(\.element)
        }
    }

    /// Every value of the named field, in order.
    public func values(for name: String) -> [String] {
        fields.filter { $0.name.caseInsensitiveEquals(name) }.map(\.value)
    }

    /// Appends a field, keeping any existing field of the same name.
    public mutating func add(name: String, value: String) {
        fields.append(Field(name: name, value: value))
    }

    /// Removes every field of the given name.
    public mutating func remove(_ name: String) {
        fields.removeAll { $0.name.caseInsensitiveEquals(name) }
    }

    /// Whether a field of the given name is present.
    public func contains(_ name: String) -> Bool {
        fields.contains { $0.name.caseInsensitiveEquals(name) }
    }

    /// Returns these headers with `other`'s fields replacing same-named ones.
    public func merging(_ other: HTTPHeaders) -> HTTPHeaders {
        if other.fields.isEmpty { return self }
        var merged = self
        for name in Set(other.fields.map { $0.name.lowercased() }) { merged.remove(name) }
        merged.fields.append(contentsOf: other.fields)
        return merged
    }

    /// Makes room for `count` fields in all, so a response's head is collected without regrowing.
    mutating func reserveCapacity(_ count: Int) {
        fields.reserveCapacity(count)
    }

    /// Iterates the fields in order.
    public func makeIterator() -> IndexingIterator<[Field]> { fields.makeIterator() }

    /// The number of fields.
    public var count: Int { fields.count }

    /// The fields as `Name: value` lines.
    public var description: String {
        fields.map { "\($0.name): \($0.value)" }.joined(separator: "\n")
    }
}

extension String {
    /// ASCII case-insensitive comparison, as header names and schemes need.
    ///
    /// Compared byte by byte: this runs for every header lookup of every request and response, and lowercasing both
    /// strings measured as a large share of a cache hit. Text outside ASCII falls back to full lowercasing, so the
    /// answer is the same as comparing `lowercased()` forms of equal UTF-8 length.
    func caseInsensitiveEquals(_ other: String) -> Bool {
        let mine = utf8
        let theirs = other.utf8
        guard mine.count == theirs.count else { return false }
        var index = theirs.startIndex
        for byte in mine {
            let otherByte = theirs[index]
            theirs.formIndex(after: &index)
            if byte == otherByte { continue }
            guard byte < 0x80, otherByte < 0x80 else { return lowercased() == other.lowercased() }
            if Self.asciiLowercase(byte) != Self.asciiLowercase(otherByte) { return false }
        }
        return true
    }

    private static func asciiLowercase(_ byte: UInt8) -> UInt8 {
        byte >= UInt8(ascii: "A") && byte <= UInt8(ascii: "Z") ? byte | 0x20 : byte
    }
}
