import FeatureState

/// How the recipe screens speak of failures: one sentence per kind.
public enum RecipeWording: FailureWording {
    /// The sentence for a kind of failure.
    public static func sentence(for kind: FailureKind) -> String {
        switch kind {
        case .unreachable, .connectionFailed, .notCached:
            return "You seem to be offline. Check your connection and try again."
        case .timedOut: return "The recipe service took too long to answer. Please try again."
        case .redirectRefused, .serverError, .blocked:
            return "The recipe service is having trouble right now. Please try again later."
        case .notFound: return "That recipe could not be found."
        case .invalidResponse: return "The recipe service sent data that could not be read."
        case .invalidRequest: return "Something went wrong. Please try again."
        case .appFailure: return "Something in the app went wrong. Please try again."
        case .cancelled: return "The request was cancelled."
        }
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
