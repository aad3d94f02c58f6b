/// `Sec-WebSocket-Extensions` as RFC 6455 §9.1 writes it: a comma-separated list of extensions, each a token with
/// `;`-separated parameters, each a token with an optional value (a token or a quoted string).
enum ExtensionHeader {
    struct Element: Sendable, Hashable {
        var name: String
        /// The parameters in order, names lowercased, quoted values unquoted.
        var parameters: [(String, String?)]

        static func == (lhs: Element, rhs: Element) -> Bool {
            lhs.name == rhs.name && lhs.parameters.map(\.0) == rhs.parameters.map(\.0)
                && lhs.parameters.map(\.1) == rhs.parameters.map(\.1)
        }

        func hash(into hasher: inout Hasher) {
            hasher.combine(name)
            for (key, value) in parameters {
                hasher.combine(key)
                hasher.combine(value)
            }
        }
    }

    /// The elements of `value`; empty for an empty value. Anything that is not the grammar throws.
    static func parse(_ value: String) throws(WebSocketHandshakeFailure) -> [Element] {
        var scanner = Scanner(Array(value.utf8))
        var elements: [Element] = []
        scanner.skipSpace()
        if scanner.atEnd { return [] }
        while true {
            scanner.skipSpace()
            guard let name = scanner.token() else { throw .extensionRefused("the extensions header is malformed") }
            var element = Element(name: name.lowercased(), parameters: [])
            scanner.skipSpace()
            while scanner.take(UInt8(ascii: ";")) {
                scanner.skipSpace()
                guard let key = scanner.token() else { throw .extensionRefused("an extension parameter is malformed") }
                scanner.skipSpace()
                var parameterValue: String?
                if scanner.take(UInt8(ascii: "=")) {
                    scanner.skipSpace()
                    guard let found = scanner.token() ?? scanner.quoted() else {
                        throw .extensionRefused("the value of \(key) is malformed")
                    }
                    parameterValue = found
                    scanner.skipSpace()
                }
                element.parameters.append((key.lowercased(), parameterValue))
            }
            elements.append(element)
            if scanner.atEnd { return elements }
            guard scanner.take(UInt8(ascii: ",")) else { throw .extensionRefused("the extensions header is malformed") }
        }
    }

    private struct Scanner {
        let bytes: [UInt8]
        var index = 0

        init(_ bytes: [UInt8]) { self.bytes = bytes }

        var atEnd: Bool { index == bytes.count }

        mutating func skipSpace() {
            while index < bytes.count, bytes[index] == 0x20 || bytes[index] == 0x09 { index += 1 }
        }

        mutating func take(_ byte: UInt8) -> Bool {
            guard index < bytes.count, bytes[index] == byte else { return false }
            index += 1
            return true
        }

        mutating func token() -> String? {
            let start = index
            while index < bytes.count, FieldSyntax.isTokenByte(bytes[index]) { index += 1 }
            return index > start ? String(decoding: bytes[start..<index], as: UTF8.self) : nil
        }

        /// A quoted string's content; a backslash quotes the byte after it.
        mutating func quoted() -> String? {
            guard take(UInt8(ascii: "\"")) else { return nil }
            var content: [UInt8] = []
            while index < bytes.count {
                let byte = bytes[index]
                index += 1
                switch byte {
                case UInt8(ascii: "\""): return String(decoding: content, as: UTF8.self)
                case UInt8(ascii: "\\"):
                    guard index < bytes.count else { return nil }
                    content.append(bytes[index])
                    index += 1
                default: content.append(byte)
                }
            }
            return nil
        }
    }
}
