import Errand
import Foundation

/// A failure as a command-line tool reports it: one sentence for stderr, the exit code, and the technical detail
/// shown only with `--verbose`.
public struct Failure: Error, Sendable, Hashable, CustomStringConvertible {
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
    public var description: String { message }

    /// The failure for a usage error (exit 2).
    public init(_ error: UsageError) {
        self.init(.usage, error.description)
    }

    /// The failure class of an ``ErrandError``, with the error's user message.
    ///
    /// Wire failures and offline cache misses are network failures (4); HTTP 404 is not-found (3); other status
    /// errors, bot protection included, are server failures (5); undecodable or oversized bodies and unreadable
    /// responses are invalid responses (6); cancellation is an interruption (130); bad URLs and requests are usage
    /// errors (2), since on the command line they come from what the user typed. A service that cannot be reached
    /// at all (refused, or its name not found: no network) is said so, with the way to use another server.
    public init(_ error: ErrandError) {
        let code: ExitCode
        switch error {
        case .transport(let failure) where failure.kind == .cannotConnect || failure.kind == .dnsFailure:
            self.init(.network, Self.unreachable(failure.url), detail: error.debugDescription)
            return
        case .transport(let failure):
            code = failure.kind == .badResponse ? .invalidResponse : .network
        case .notCached:
            code = .network
        case .unacceptableStatus(let failure):
            code = failure.status == 404 ? .notFound : .server
        case .blocked:
            code = .server
        case .decoding, .bodyTooLarge:
            code = .invalidResponse
        case .invalidURL, .insecureURL, .invalidRequest:
            code = .usage
        case .cancelled:
            code = .interrupted
        }
        self.init(code, error.userMessage, detail: error.debugDescription)
    }

    /// The sentence for a service that cannot be reached: which server, and how to point the tool at another one.
    static func unreachable(_ url: URL?) -> String {
        let server = url?.host.map { "\($0)" + (url?.port.map { ":\($0)" } ?? "") } ?? "the service"
        return "Could not reach \(server); check the network connection, or point to another server with --base-url."
    }

    /// Classifies any error: ``Failure`` and ``UsageError`` as they are, ``ErrandError`` by its class,
    /// cancellation as an interruption, anything else as a general failure with its description.
    public static func classify(_ error: any Error) -> Failure {
        switch error {
        case let failure as Failure: return failure
        case let usage as UsageError: return Failure(usage)
        case let errand as ErrandError: return Failure(errand)
        case is CancellationError: return Failure(.interrupted, "Interrupted.")
        default: return Failure(.failure, "\(error)")
        }
    }
}
