import Foundation
import Synchronization

/// The string tables of the modules' resources, read once per module and language.
///
/// `Localizable.strings` is read with `PropertyListSerialization`, which parses both the text form and the binary
/// form Xcode may turn it into, on Linux as on Apple platforms.
final class StringTables: Sendable {
    static let shared = StringTables()

    private let tables = Mutex([String: [String: String]]())

    /// The text for `key` in the bundle's table for `language`, if the table has it.
    func text(for key: String, in bundle: Bundle, language: String) -> String? {
        let name = bundle.bundlePath + "|" + language
        if let table = tables.withLock({ $0[name] }) { return table[key] }
        let table = Self.load(from: bundle, language: language)
        tables.withLock { $0[name] = table }
        return table[key]
    }

    private static func load(from bundle: Bundle, language: String) -> [String: String] {
        let url = bundle.bundleURL.appendingPathComponent("\(language).lproj/Localizable.strings")
        let candidates = [url, bundle.resourceURL?.appendingPathComponent("\(language).lproj/Localizable.strings")]
        for candidate in candidates.compactMap({ $0 }) {
            guard let data = try? Data(contentsOf: candidate),
                let table = try? PropertyListSerialization.propertyList(from: data, format: nil) as? [String: String]
            else { continue }
            return table
        }
        return [:]
    }
}
