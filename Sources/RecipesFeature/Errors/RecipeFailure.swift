import FeatureState
import Errand
import MealDB

/// A failure as the recipe screens present it: one sentence for the user, the technical error for the log.
public struct RecipeFailure: Error, Sendable, Hashable, CustomStringConvertible {
    /// What kind of trouble it is, from the user's point of view.
    public typealias Kind = FailureKind

    /// The kind.
    public var kind: Kind
    /// The technical description, for logs (never shown to the user).
    public var technicalDescription: String

    /// Creates a failure.
    public init(kind: Kind, technicalDescription: String) {
        self.kind = kind
        self.technicalDescription = technicalDescription
    }

    /// One sentence for the user.
    public var message: String {
        switch kind {
        case .offline: return "You seem to be offline. Check your connection and try again."
        case .timedOut: return "The recipe service took too long to answer. Please try again."
        case .serverTrouble: return "The recipe service is having trouble right now. Please try again later."
        case .notFound: return "That recipe could not be found."
        case .invalidData: return "The recipe service sent data that could not be read."
        case .unexpected: return "Something went wrong. Please try again."
        }
    }

    /// The user's sentence.
    public var description: String { message }

    /// Classifies any error thrown by the MealDB SDK or Errand.
    public init(_ error: any Error) {
        if let failure = error as? RecipeFailure {
            self = failure
            return
        }
        let errand = ErrandError(error)
        self.init(kind: FailureKind(errand), technicalDescription: errand.debugDescription)
    }

    /// The failure for a meal id the service does not know.
    public static func mealNotFound(id: String) -> RecipeFailure {
        RecipeFailure(kind: .notFound, technicalDescription: "lookup.php answered no meal for id \(id)")
    }
}

extension RecipeFailure {
    /// Whether an error is a cancellation rather than a failure to report.
    public static func isCancellation(_ error: any Error) -> Bool {
        if error is CancellationError { return true }
        if case .cancelled? = error as? ErrandError { return true }
        return false
    }
}
