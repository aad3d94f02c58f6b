import Foundation

/// Plain-text layout for terminals: word wrapping and aligned two-column lists.
public enum TextLayout {
    /// Wraps text at `width` columns, keeping paragraphs (blank lines) and indenting every line by `indent` spaces.
    ///
    /// Words longer than a line are put on a line of their own, never cut. Line breaks inside a paragraph are
    /// treated as spaces; `\r\n` is treated as `\n`.
    public static func wrap(_ text: String, width: Int, indent: Int = 0) -> String {
        let prefix = String(repeating: " ", count: indent)
        let available = max(20, width - indent)
        let normalized = text.replacingOccurrences(of: "\r\n", with: "\n").replacingOccurrences(of: "\r", with: "\n")
        let paragraphs = normalized.components(separatedBy: "\n").reduce(into: [[String]]()) { result, line in
            let words = line.split(whereSeparator: \.isWhitespace).map(String.init)
            if words.isEmpty {
                if result.last?.isEmpty == false { result.append([]) }
            } else {
                if result.isEmpty { result.append([]) }
                result[result.count - 1] += words
            }
        }.filter { !$0.isEmpty }
        return paragraphs.map { words in
            var lines: [String] = []
            var line = ""
            for word in words {
                if line.isEmpty {
                    line = word
                } else if line.count + 1 + word.count <= available {
                    line += " " + word
                } else {
                    lines.append(line)
                    line = word
                }
            }
            if !line.isEmpty { lines.append(line) }
            return lines.map { prefix + $0 }.joined(separator: "\n")
        }.joined(separator: "\n\n")
    }

    /// Renders rows as aligned columns separated by two spaces; the last column wraps under itself at `width`.
    ///
    /// ```
    /// 52771  Spicy Arrabiata Penne   Vegetarian  Italian
    /// 52772  Teriyaki Chicken        Chicken     Japanese
    /// ```
    public static func columns(_ rows: [[String]], width: Int = 80, indent: Int = 0, gap: Int = 2) -> String {
        guard let columnCount = rows.map(\.count).max(), columnCount > 0 else { return "" }
        var widths = Array(repeating: 0, count: columnCount)
        for row in rows {
            for (index, cell) in row.enumerated() where index < columnCount - 1 {
                widths[index] = max(widths[index], cell.count)
            }
        }
        let prefix = String(repeating: " ", count: indent)
        let spacing = String(repeating: " ", count: gap)
        let lastStart = indent + widths.dropLast().reduce(0) { $0 + $1 + gap }
        return rows.map { row in
            var line = prefix
            for (index, cell) in row.enumerated() {
                if index == columnCount - 1 || index == row.count - 1 {
                    let room = width - lastStart
                    if index == columnCount - 1, room >= 20, cell.count > room {
                        let wrapped = wrap(cell, width: width, indent: lastStart)
                        line += String(wrapped.drop { $0 == " " })
                    } else {
                        line += cell
                    }
                } else {
                    line += cell.padding(toLength: widths[index], withPad: " ", startingAt: 0) + spacing
                }
            }
            return String(line.reversed().drop { $0 == " " }.reversed())
        }.joined(separator: "\n")
    }
}
