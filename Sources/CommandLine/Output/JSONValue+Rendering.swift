extension JSONValue {
    /// The document as text: indented by two spaces when `pretty`, compact otherwise; no trailing newline.
    ///
    /// Strings keep non-ASCII characters as UTF-8 and escape quotes, backslashes, every C0 and C1 control character,
    /// DEL, the line and paragraph separators and the bidirectional controls as `\uXXXX`: the values stay exact for a
    /// JSON reader, and the text itself holds nothing a terminal would act on.
    public func rendered(pretty: Bool = true) -> String {
        var output = ""
        write(to: &output, pretty: pretty, depth: 0)
        return output
    }

    private func write(to output: inout String, pretty: Bool, depth: Int) {
        switch self {
        case .null:
            output += "null"
        case .bool(let value):
            output += value ? "true" : "false"
        case .integer(let value):
            output += String(value)
        case .number(let value):
            output += Self.format(value)
        case .string(let value):
            Self.quote(value, into: &output)
        case .array(let elements):
            guard !elements.isEmpty else { output += "[]"; return }
            output += "["
            for (index, element) in elements.enumerated() {
                if index > 0 { output += "," }
                Self.newline(&output, pretty: pretty, depth: depth + 1)
                element.write(to: &output, pretty: pretty, depth: depth + 1)
            }
            Self.newline(&output, pretty: pretty, depth: depth)
            output += "]"
        case .object(let members):
            guard !members.isEmpty else { output += "{}"; return }
            output += "{"
            for (index, member) in members.enumerated() {
                if index > 0 { output += "," }
                Self.newline(&output, pretty: pretty, depth: depth + 1)
                Self.quote(member.key, into: &output)
                output += pretty ? ": " : ":"
                member.value.write(to: &output, pretty: pretty, depth: depth + 1)
            }
            Self.newline(&output, pretty: pretty, depth: depth)
            output += "}"
        }
    }

    private static func newline(_ output: inout String, pretty: Bool, depth: Int) {
        guard pretty else { return }
        output += "\n" + String(repeating: "  ", count: depth)
    }

    private static func format(_ value: Double) -> String {
        guard value.isFinite else { return "null" }
        if value == value.rounded(), abs(value) < 1e15 { return String(Int(value)) }
        return "\(value)"
    }

    private static func quote(_ string: String, into output: inout String) {
        output += "\""
        for scalar in string.unicodeScalars {
            switch scalar {
            case "\"": output += "\\\""
            case "\\": output += "\\\\"
            case "\n": output += "\\n"
            case "\r": output += "\\r"
            case "\t": output += "\\t"
            case "\u{08}": output += "\\b"
            case "\u{0C}": output += "\\f"
            case "\u{00}"..."\u{1F}", "\u{7F}"..."\u{9F}", "\u{2028}", "\u{2029}", "\u{061C}", "\u{200E}", "\u{200F}",
                "\u{202A}"..."\u{202E}", "\u{2066}"..."\u{2069}":
                let hex = String(scalar.value, radix: 16, uppercase: false)
                output += "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
            default:
                output.unicodeScalars.append(scalar)
            }
        }
        output += "\""
    }
}
