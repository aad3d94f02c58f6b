import Errand
import FeatureState
import MetMuseum

/// How the museum screens speak of failures: one sentence per kind, and the Met SDK's errors classified.
public enum MuseumWording: FailureWording {
    /// The sentence for a kind of failure, in ``/Errand/Localization/language``.
    public static func sentence(for kind: FailureKind) -> String {
        sentence(for: kind, language: Localization.language)
    }

    /// The sentence for a kind of failure in a language, from the module's string tables.
    public static func sentence(for kind: FailureKind, language: String) -> String {
        Localization.sentence(FailureSentenceKey.key(for: kind), in: .module, language: language)
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
