import Foundation

/// The cleaning rules for TheMealDB's text fields, in one place.
///
/// The service pads values (`"1 tin "`), writes `""`, `" "` or `null` for "nothing", ends tag lists with commas and
/// uses `\r\n` line breaks; these functions turn that into values a caller can use as they are.
enum RawText {
    /// The text trimmed of whitespace and newlines; `nil` when nothing is left.
    static func clean(_ raw: String?) -> String? {
        guard let trimmed = raw?.trimmingCharacters(in: .whitespacesAndNewlines), !trimmed.isEmpty else { return nil }
        return trimmed
    }

    /// Multi-line text with `\r\n` and lone `\r` turned into `\n`, then trimmed; `nil` when nothing is left.
    static func cleanLines(_ raw: String?) -> String? {
        clean(raw?.replacingOccurrences(of: "\r\n", with: "\n").replacingOccurrences(of: "\r", with: "\n"))
    }

    /// A comma-separated list split, each entry trimmed, empty entries dropped (`"Breakfast,Brunch,"` has two).
    static func list(_ raw: String?) -> [String] {
        guard let raw else { return [] }
        return raw.split(separator: ",", omittingEmptySubsequences: true).compactMap { clean(String($0)) }
    }

    /// An absolute `http` or `https` URL with a host; `nil` for empty text, free text and anything else.
    static func webURL(_ raw: String?) -> URL? {
        guard let text = clean(raw), let url = URL(string: text),
            let scheme = url.scheme?.lowercased(), scheme == "http" || scheme == "https",
            let host = url.host, !host.isEmpty
        else { return nil }
        return url
    }
}
