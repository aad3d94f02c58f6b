import Errand
import Foundation

/// The tools' own sentences (usage errors, failures, "no results" lines), from this module's string tables in
/// English and German, looked up as the libraries' are (`Localization.sentence(_:in:language:values:)`): in
/// `Localization.language`, which follows `LC_ALL`, `LC_MESSAGES` or `LANG`, so the tools speak English unless the
/// locale says otherwise. Option names, commands and help text stay as they are.
public enum ToolText {
    /// The sentence for `key` (`usage.unknownOption`, `mealdb.noMealsFound`, …), each `{name}` replaced by
    /// `values[name]`.
    public static func sentence(
        _ key: String, _ values: [String: String] = [:], language: String = Localization.language
    ) -> String {
        Localization.sentence(key, in: .module, language: language, values: values)
    }

    /// The sentence for a count: `key.one` when `count` is 1, `key.other` otherwise (both tables have both forms),
    /// with `{count}` set to the count and each other `{name}` replaced by `values[name]`.
    public static func counted(
        _ key: String, count: Int, _ values: [String: String] = [:], language: String = Localization.language
    ) -> String {
        var values = values
        values["count"] = String(count)
        return sentence(key + (count == 1 ? ".one" : ".other"), values, language: language)
    }
}
