import Errand
import FeatureState

/// How the recipe screens speak of failures: one sentence per kind.
public enum RecipeWording: FailureWording {
    /// The sentence for a kind of failure, in ``/Errand/Localization/language``.
    public static func sentence(for kind: FailureKind) -> String {
        sentence(for: kind, language: Localization.language)
    }

    /// The sentence for a kind of failure in a language, from the module's string tables.
    public static func sentence(for kind: FailureKind, language: String) -> String {
        Localization.sentence(FailureSentenceKey.key(for: kind), in: .module, language: language)
    }
}

/// A failure as the recipe screens present it: one sentence for the user, the technical error for the log.
public typealias RecipeFailure = FeatureFailure<RecipeWording>

extension FeatureFailure where Wording == RecipeWording {
    /// The failure for a meal id the service does not know.
    public static func mealNotFound(id: String) -> RecipeFailure {
        RecipeFailure(
            ClassifiedFailure(
                kind: .notFound, reason: "TheMealDB has no meal with id \(id).",
                technicalDescription: "lookup.php answered no meal for id \(id)"))
    }
}
