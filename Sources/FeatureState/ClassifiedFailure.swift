import Errand
import Foundation

/// One failure, classified: its ``FailureKind``, the error's own sentence, and the details for a log.
///
/// Front ends present the kind (an app's sentence, a tool's exit code); ``reason`` is finer, for a front end that
/// shows the error's own words, as the command-line tools do. It describes itself by the rule of
/// ``/Errand/DescribedError``: `description` and `localizedDescription` are ``reason``, `debugDescription` is
/// ``technicalDescription``.
public struct ClassifiedFailure: DescribedError, Hashable {
    /// What kind of trouble it is.
    public var kind: FailureKind
    /// The error's own sentence, as ``/Errand/ErrandError/userMessage`` words it (it names the status, say).
    public var reason: String
    /// The technical description, for logs (never shown to the user).
    public var technicalDescription: String
    /// The address the failure concerns, when the error names one.
    public var url: URL?

    /// Creates a failure.
    public init(kind: FailureKind, reason: String, technicalDescription: String, url: URL? = nil) {
        self.kind = kind
        self.reason = reason
        self.technicalDescription = technicalDescription
        self.url = url
    }

    /// Classifies a client error.
    public init(_ error: ErrandError) {
        self.init(
            kind: FailureKind(error), reason: error.userMessage, technicalDescription: error.debugDescription,
            url: Self.url(of: error))
    }

    /// Classifies any error: a ``ClassifiedFailure`` as it is, what `classifyOwn` knows (an SDK's own errors),
    /// and everything else as the ``/Errand/ErrandError`` it amounts to (cancellation as ``FailureKind/cancelled``).
    public init(_ error: any Error, classifyingOwn classifyOwn: (any Error) -> ClassifiedFailure? = { _ in nil }) {
        if let failure = error as? ClassifiedFailure {
            self = failure
        } else if let own = classifyOwn(error) {
            self = own
        } else {
            self.init(ErrandError(error))
        }
    }

    /// The error's own sentence, ``reason``.
    public var userMessage: String { reason }

    /// The technical description, for logs.
    public var debugDescription: String { technicalDescription }

    private static func url(of error: ErrandError) -> URL? {
        switch error {
        case .transport(let failure): return failure.url
        case .unacceptableStatus(let failure), .blocked(let failure): return failure.url
        case .notCached(let url), .insecureURL(let url): return url
        default: return nil
        }
    }
}
