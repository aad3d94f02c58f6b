import Errand
import FeatureState
import Foundation

/// A failure as a command-line tool reports it: one sentence for stderr, the exit code, and the technical detail
/// shown only with `--verbose`.
///
/// It describes itself by the rule of `DescribedError`: `description` is ``message``, `debugDescription` the detail.
public struct Failure: DescribedError, Hashable {
    /// The exit status.
    public var exitCode: ExitCode
    /// One sentence for the user.
    public var message: String
    /// Technical detail for `--verbose` (the error's debug description), if any.
    public var detail: String?

    /// Creates a failure.
    public init(_ exitCode: ExitCode, _ message: String, detail: String? = nil) {
        self.exitCode = exitCode
        self.message = message
        self.detail = detail
    }

    /// The message.
    public var userMessage: String { message }

    /// The detail, or the message when there is none.
    public var debugDescription: String { detail ?? message }

    /// The failure for a usage error (exit 2).
    public init(_ error: UsageError) {
        self.init(.usage, error.description)
    }

    /// The failure a tool reports for a classified failure: the kind's exit code (``ExitCode/init(_:)``), the
    /// error's own sentence, and its technical description for `--verbose`.
    ///
    /// A service that cannot be reached at all (refused, or its name not found: no network) is said so, with the way
    /// to use another server.
    public init(_ failure: ClassifiedFailure) {
        let message = failure.kind == .unreachable ? Self.unreachable(failure.url) : failure.reason
        self.init(ExitCode(failure.kind), message, detail: failure.technicalDescription)
    }

    /// The sentence for a service that cannot be reached: which server, and how to point the tool at another one.
    static func unreachable(_ url: URL?) -> String {
        let server =
            url?.host.map { "\($0)" + (url?.port.map { ":\($0)" } ?? "") }
            ?? ToolText.sentence("failure.unreachable.theService")
        return ToolText.sentence("failure.unreachable", ["server": server])
    }

    /// Classifies any error: ``Failure`` and ``UsageError`` as they are, ``ClassifiedFailure`` and ``ErrandError``
    /// by their kind, cancellation as an interruption, anything else as a general failure with its description.
    public static func classify(_ error: any Error) -> Failure {
        switch error {
        case let failure as Failure: return failure
        case let usage as UsageError: return Failure(usage)
        case let classified as ClassifiedFailure: return Failure(classified)
        case let errand as ErrandError: return Failure(ClassifiedFailure(errand))
        case is CancellationError: return Failure(.interrupted, ToolText.sentence("failure.interrupted"))
        default: return Failure(.failure, "\(error)", detail: String(reflecting: error))
        }
    }
}
