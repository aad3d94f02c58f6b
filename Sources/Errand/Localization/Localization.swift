import Foundation
import Synchronization

/// The language of the sentences Errand and the feature modules show users, and an app's own wording of any of them.
///
/// Every user-facing sentence (``ErrandError/userMessage``, the feature modules' failure sentences) comes from a
/// string table in its module's resources, `<language>.lproj/Localizable.strings`; English and German ship. The
/// tables are read by Errand itself rather than through `String(localized:)`, which on Linux cannot be told a
/// language, so the same lookup runs on every platform and a caller can ask for a language explicitly
/// (``ErrandError/userMessage(in:)``).
///
/// An app changes any sentence with ``overrides``: it is asked first, with the sentence's key (as
/// `error.transport.timedOut`, listed in the tables) and the language, and a non-`nil` answer is used as it is.
public enum Localization {
    /// The languages the libraries ship sentences in.
    public static let shippedLanguages = ["en", "de"]

    private struct Settings {
        var language: String?
        var overrides: (@Sendable (_ key: String, _ language: String) -> String?)?
    }

    private static let settings = Mutex(Settings())

    /// The language sentences are given in when none is asked for: by default the first shipped language among the
    /// user's (the `LC_ALL`, `LC_MESSAGES` or `LANG` environment variable, else the system's preferred languages),
    /// English when none matches. Setting it fixes the language for the whole process.
    public static var language: String {
        get {
            settings.withLock { $0.language }
                ?? preferredLanguage(
                    environment: ProcessInfo.processInfo.environment, preferred: Locale.preferredLanguages)
        }
        set { settings.withLock { $0.language = newValue } }
    }

    /// The app's own sentences, asked before the tables with a sentence's key and language; `nil` keeps the table's.
    public static var overrides: (@Sendable (_ key: String, _ language: String) -> String?)? {
        get { settings.withLock { $0.overrides } }
        set { settings.withLock { $0.overrides = newValue } }
    }

    /// The sentence for `key` from a module's tables, in `language` (English when the language lacks it), with each
    /// `{name}` replaced by `values[name]`.
    public static func sentence(
        _ key: String, in bundle: Bundle, language: String, values: [String: String] = [:]
    ) -> String {
        let template =
            overrides?(key, language)
            ?? StringTables.shared.text(for: key, in: bundle, language: language)
            ?? StringTables.shared.text(for: key, in: bundle, language: "en")
            ?? key
        return values.reduce(template) { text, value in
            text.replacingOccurrences(of: "{\(value.key)}", with: value.value)
        }
    }

    /// The first shipped language named by the locale variables (`de_DE.UTF-8` names `de`), else by `preferred`.
    static func preferredLanguage(environment: [String: String], preferred: [String]) -> String {
        let named = ["LC_ALL", "LC_MESSAGES", "LANG"].compactMap { environment[$0] }.first { !$0.isEmpty }
        let candidates = (named.map { [$0] } ?? []) + preferred
        for candidate in candidates {
            let code = String(candidate.prefix { $0.isLetter }).lowercased()
            if shippedLanguages.contains(code) { return code }
            // A variable set to C or POSIX asks for no language: the system's preferences do not apply either.
            if named == candidate && (code == "c" || code == "posix") { return "en" }
        }
        return "en"
    }
}
