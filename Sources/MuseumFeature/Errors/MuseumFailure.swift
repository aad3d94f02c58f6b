import FeatureState
import Errand
import MetMuseum

/// A failure as the museum screens present it: one sentence for the user, the technical error for the log.
public struct MuseumFailure: Error, Sendable, Hashable, CustomStringConvertible {
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
        case .timedOut: return "The museum's service took too long to answer. Please try again."
        case .serverTrouble: return "The museum's service is having trouble right now. Please try again later."
        case .notFound: return "That object could not be found in the collection."
        case .invalidData: return "The museum's service sent data that could not be read."
        case .unexpected: return "Something went wrong. Please try again."
        }
    }

    /// The user's sentence.
    public var description: String { message }

    /// Classifies any error thrown by the MetMuseum SDK or Errand.
    public init(_ error: any Error) {
        switch error {
        case let failure as MuseumFailure:
            self = failure
        case let met as MetError:
            self.init(kind: Self.kind(of: met), technicalDescription: met.debugDescription)
        default:
            let errand = ErrandError(error)
            self.init(kind: FailureKind(errand), technicalDescription: errand.debugDescription)
        }
    }

    /// Whether an error is a cancellation rather than a failure to report.
    public static func isCancellation(_ error: any Error) -> Bool {
        switch error {
        case is CancellationError: return true
        case let met as MetError: return met.isCancellation
        case let errand as ErrandError: if case .cancelled = errand { return true } else { return false }
        default: return false
        }
    }

    private static func kind(of error: MetError) -> Kind {
        switch error {
        case .notFound, .notAvailable: return .notFound
        case .blocked, .serviceUnavailable: return .serverTrouble
        case .invalidQuery: return .unexpected
        case .request(let errand): return FailureKind(errand)
        }
    }
}
