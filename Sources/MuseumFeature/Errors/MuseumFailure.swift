import FeatureState
import MetMuseum

/// How the museum screens speak of failures: one sentence per kind, and the Met SDK's errors classified.
public enum MuseumWording: FailureWording {
    /// The sentence for a kind of failure.
    public static func sentence(for kind: FailureKind) -> String {
        switch kind {
        case .unreachable, .connectionFailed, .notCached:
            return "You seem to be offline. Check your connection and try again."
        case .timedOut: return "The museum's service took too long to answer. Please try again."
        case .redirectRefused, .serverError, .blocked:
            return "The museum's service is having trouble right now. Please try again later."
        case .notFound: return "That object could not be found in the collection."
        case .invalidResponse: return "The museum's service sent data that could not be read."
        case .invalidRequest: return "Something went wrong. Please try again."
        case .appFailure: return "Something in the app went wrong. Please try again."
        case .cancelled: return "The request was cancelled."
        }
    }

    /// Classifies a ``/MetMuseum/MetError``.
    public static func classifyOwn(_ error: any Error) -> ClassifiedFailure? {
        (error as? MetError).map(ClassifiedFailure.init)
    }
}

/// A failure as the museum screens present it: one sentence for the user, the technical error for the log.
public typealias MuseumFailure = FeatureFailure<MuseumWording>

extension ClassifiedFailure {
    /// Classifies a Met SDK failure: missing or unserved objects are not found, the bot protection blocked, an
    /// outage a server error, an invalid query an invalid request, the rest by its Errand error.
    public init(_ error: MetError) {
        let kind: FailureKind
        switch error {
        case .notFound, .notAvailable: kind = .notFound
        case .blocked: kind = .blocked
        case .serviceUnavailable: kind = .serverError
        case .invalidQuery: kind = .invalidRequest
        case .request(let underlying):
            self.init(underlying)
            return
        }
        self.init(kind: kind, reason: error.userMessage, technicalDescription: error.debugDescription)
    }
}
