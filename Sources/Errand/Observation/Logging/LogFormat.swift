import Foundation

/// How a ``LoggingObserver`` writes its lines: one line per event in either format, the same fields in the same order.
public enum LogFormat: Sendable, Hashable, CaseIterable {
    /// `key=value` pairs separated by spaces (logfmt): a value with a space, a quote, an `=` or a control character
    /// is quoted, with `\"`, `\\`, `\n`, `\r` and `\t` escaped, so every event stays one line that a person reads and
    /// a logfmt parser splits. Numbers are written as numbers.
    case keyValue
    /// One JSON object per line (JSON lines): text as JSON strings, numbers as JSON numbers.
    case jsonLines
}

/// One log line's fields, in order, before they are written in a ``LogFormat``.
struct LogFields {
    /// A field's value: text, or a number written without quotes.
    enum Value {
        case text(String)
        case integer(Int)
        /// A measure, written with two decimals (`12.34`).
        case decimal(Double)
        case flag(Bool)
    }

    private(set) var fields: [(key: String, value: Value)] = []

    mutating func append(_ key: String, _ value: Value) {
        fields.append((key, value))
    }

    mutating func append(_ key: String, _ value: String?) {
        if let value { append(key, .text(value)) }
    }

    mutating func append(_ key: String, _ value: Int?) {
        if let value { append(key, .integer(value)) }
    }

    /// A duration in milliseconds, under a key that ends in `_ms`.
    mutating func append(_ key: String, _ value: Duration?) {
        if let value { append(key, .decimal(value / .milliseconds(1))) }
    }

    mutating func append(_ key: String, _ value: Bool?) {
        if let value { append(key, .flag(value)) }
    }

    /// The fields as one line, without a line break.
    func line(_ format: LogFormat) -> String {
        switch format {
        case .keyValue:
            return fields.map { "\($0.key)=\(Self.keyValue($0.value))" }.joined(separator: " ")
        case .jsonLines:
            return "{" + fields.map { "\(Self.jsonString($0.key)):\(Self.json($0.value))" }.joined(separator: ",") + "}"
        }
    }

    private static func number(_ value: Value) -> String? {
        switch value {
        case .integer(let number): return String(number)
        case .decimal(let number): return number.isFinite ? String(format: "%.2f", number) : "0"
        case .flag(let flag): return flag ? "true" : "false"
        case .text: return nil
        }
    }

    private static func keyValue(_ value: Value) -> String {
        if let number = number(value) { return number }
        guard case .text(let text) = value else { return "" }
        let needsQuotes =
            text.isEmpty
            || text.unicodeScalars.contains {
                $0 == " " || $0 == "\"" || $0 == "=" || $0 == "\\" || $0.value < 0x20 || $0.value == 0x7F
            }
        return needsQuotes ? "\"" + escaped(text, unicode: { String(format: "\\u{%X}", $0) }) + "\"" : text
    }

    private static func json(_ value: Value) -> String {
        if let number = number(value) { return number }
        guard case .text(let text) = value else { return "null" }
        return jsonString(text)
    }

    private static func jsonString(_ text: String) -> String {
        "\"" + escaped(text, unicode: { String(format: "\\u%04X", $0) }) + "\""
    }

    /// `text` with quotes, backslashes and control characters escaped: `\n`, `\r`, `\t` by name, the rest by `unicode`.
    private static func escaped(_ text: String, unicode: (UInt32) -> String) -> String {
        var result = ""
        result.reserveCapacity(text.utf8.count)
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\"": result += "\\\""
            case "\\": result += "\\\\"
            case "\n": result += "\\n"
            case "\r": result += "\\r"
            case "\t": result += "\\t"
            default:
                if scalar.value < 0x20 || scalar.value == 0x7F {
                    result += unicode(scalar.value)
                } else {
                    result.unicodeScalars.append(scalar)
                }
            }
        }
        return result
    }
}
