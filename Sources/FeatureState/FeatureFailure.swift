import Errand

/// How one feature speaks of failures: a sentence for every ``FailureKind``, and the classification of its SDK's
/// own errors.
public protocol FailureWording: Sendable {
    /// The sentence the feature's screens show for a kind of failure, in ``/Errand/Localization/language``.
    static func sentence(for kind: FailureKind) -> String
    /// The sentence for a kind of failure in a language (`"de"`); a wording without tables of its own answers with
    /// ``sentence(for:)``.
    static func sentence(for kind: FailureKind, language: String) -> String
    /// Classifies an error of the feature's SDK that is not an ``/Errand/ErrandError``; `nil` for any other error.
    static func classifyOwn(_ error: any Error) -> ClassifiedFailure?
}

extension FailureWording {
    /// Nothing beyond Errand's errors: an SDK that throws only ``/Errand/ErrandError``.
    public static func classifyOwn(_ error: any Error) -> ClassifiedFailure? { nil }

    /// The sentence of ``sentence(for:)``, whatever the language: a wording that ships no tables.
    public static func sentence(for kind: FailureKind, language: String) -> String { sentence(for: kind) }
}

/// A failure as a feature's screens present it: the classified failure, worded by the feature.
///
/// It describes itself by the rule of ``/Errand/DescribedError``, as ``/Errand/ErrandError`` does: `"\(failure)"`,
/// `description`, `localizedDescription` and ``userMessage`` are the feature's sentence for the user;
/// ``debugDescription`` (`String(reflecting: failure)`) is the technical description, for the log.
public struct FeatureFailure<Wording: FailureWording>: PresentableFailure, DescribedError, Hashable {
    /// The failure, classified.
    public var classified: ClassifiedFailure

    /// Wraps a classified failure.
    public init(_ classified: ClassifiedFailure) {
        self.classified = classified
    }

    /// A failure of a kind, with its technical description (the error's own sentence is the feature's).
    public init(kind: FailureKind, technicalDescription: String) {
        self.init(
            ClassifiedFailure(
                kind: kind, reason: Wording.sentence(for: kind), technicalDescription: technicalDescription))
    }

    /// Classifies any error a fetch threw: Errand's, the feature's SDK's, or one of these.
    public init(_ error: any Error) {
        if let failure = error as? Self {
            self = failure
        } else {
            self.init(ClassifiedFailure(error, classifyingOwn: Wording.classifyOwn))
        }
    }

    /// What kind of trouble it is.
    public var kind: FailureKind { classified.kind }
    /// The technical description, for logs (never shown to the user).
    public var technicalDescription: String { classified.technicalDescription }
    /// One sentence for the user, in ``/Errand/Localization/language``: the feature's sentence for the kind.
    public var userMessage: String { Wording.sentence(for: kind) }
    /// The same sentence as ``userMessage``, the name ``PresentableFailure`` reads.
    public var message: String { userMessage }
    /// One sentence for the user in a language (`"de"`), whatever ``/Errand/Localization/language`` says.
    public func message(in language: String) -> String { Wording.sentence(for: kind, language: language) }
    /// The technical description, for the log: what `String(reflecting: failure)` gives.
    public var debugDescription: String { technicalDescription }

    /// Whether an error is a cancellation rather than a failure to report.
    public static func isCancellation(_ error: any Error) -> Bool {
        Self(error).kind == .cancelled
    }
}
