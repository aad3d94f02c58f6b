import CommandLine
import Foundation

/// The tools' output promises on arbitrary server text: `--json` strings come back exact through a JSON reader and
/// hold no character a terminal acts on; text for the terminal keeps printable characters (and line feeds and tabs)
/// only, with no escape sequence left, and filtering twice changes nothing.
///
/// Input: NUL-separated fields; each is a string value, and the first is also an object key.
enum OutputChecks {
    static func check(_ input: FuzzInput) -> Violations {
        var violations: Violations = []
        let fields = input.fields
        let document = JSONValue.object(
            [(key: fields[0], value: .array(fields.map(JSONValue.string)))])
        for pretty in [false, true] {
            let rendered = document.rendered(pretty: pretty)
            // Pretty output's own line breaks are layout; no other active character may appear.
            if let scalar = rendered.unicodeScalars.first(where: { isActive($0) && !(pretty && $0 == "\n") }) {
                violations.append("--json output holds U+\(String(scalar.value, radix: 16)) unescaped")
            }
            guard let parsed = try? JSONSerialization.jsonObject(with: Data(rendered.utf8)) as? [String: Any],
                let (key, value) = parsed.first, parsed.count == 1, let strings = value as? [String]
            else {
                violations.append("--json output is not the document it stands for: \(rendered.debugDescription)")
                continue
            }
            if !sameScalars(key, fields[0]) { violations.append("--json key changed: \(key.debugDescription)") }
            if strings.count != fields.count || zip(strings, fields).contains(where: { !sameScalars($0, $1) }) {
                violations.append("--json strings changed: \(strings.map(\.debugDescription))")
            }
        }
        for field in fields {
            let safe = TerminalText.safe(field)
            // The line and paragraph separators are text to a terminal (JSON escapes them for JavaScript's sake).
            let kept: Set<Unicode.Scalar> = ["\n", "\t", "\u{2028}", "\u{2029}"]
            if let scalar = safe.unicodeScalars.first(where: { isActive($0) && !kept.contains($0) }) {
                violations.append("terminal text keeps U+\(String(scalar.value, radix: 16)): \(safe.debugDescription)")
            }
            if TerminalText.safe(safe) != safe { violations.append("terminal text changes when filtered again") }
        }
        return violations
    }

    /// C0 and C1 controls, DEL, the line and paragraph separators and the bidirectional controls.
    private static func isActive(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.value {
        case 0..<0x20, 0x7F...0x9F, 0x2028, 0x2029, 0x061C, 0x200E, 0x200F, 0x202A...0x202E, 0x2066...0x2069: true
        default: false
        }
    }

    /// Equal scalar by scalar (String's `==` would call canonically equivalent texts equal).
    private static func sameScalars(_ lhs: String, _ rhs: String) -> Bool {
        lhs.unicodeScalars.elementsEqual(rhs.unicodeScalars)
    }
}
