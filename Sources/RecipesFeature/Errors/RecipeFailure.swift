import Errand
import MealDB

/// A failure as the recipe screens present it: one sentence for the user, the technical error for the log.
public struct RecipeFailure: Error, Sendable, Hashable, CustomStringConvertible {
    /// What kind of trouble it is, from the user's point of view.
    public enum Kind: String, Sendable, Hashable, CaseIterable {
        /// No connection: refused, DNS, TLS, connection lost, or not cached while offline.
        case offline
        /// The service did not answer in time.
        case timedOut
        /// The service answered with an error status, or blocked the request.
        case serverTrouble
        /// The recipe does not exist.
        case notFound
        /// The answer could not be read.
        case invalidData
        /// Anything else (a request that could not be made).
        case unexpected
    }

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
        self.init(kind: Self.kind(of: errand), technicalDescription: errand.debugDescription)
    }

    /// The failure for a meal id the service does not know.
    public static func mealNotFound(id: String) -> RecipeFailure {
        RecipeFailure(kind: .notFound, technicalDescription: "lookup.php answered no meal for id \(id)")
    }

    private static func kind(of error: ErrandError) -> Kind {
        switch error {
        case .transport(let failure):
            switch failure.kind {
            case .timedOut: return .timedOut
            case .badResponse: return .invalidData
            case .cannotConnect, .dnsFailure, .tls, .connectionLost: return .offline
            case .tooManyRedirects, .insecureRedirect, .other: return .serverTrouble
            }
        case .notCached: return .offline
        case .unacceptableStatus(let failure): return failure.status == 404 ? .notFound : .serverTrouble
        case .blocked: return .serverTrouble
        case .decoding, .bodyTooLarge: return .invalidData
        case .invalidURL, .insecureURL, .invalidRequest, .cancelled: return .unexpected
        }
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
