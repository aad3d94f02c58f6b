import FeatureState

/// The exit statuses of the command-line tools; each failure class has its own.
public enum ExitCode: Int32, Sendable, Hashable, CaseIterable {
    /// Success, including an empty result.
    case success = 0
    /// A local failure that fits no other class: a file or folder that could not be read or written (a full disk, a
    /// folder behind a symbolic link, a file that is not the tool's own).
    case failure = 1
    /// Usage error: unknown command or option, missing or malformed argument.
    case usage = 2
    /// The service does not know the requested item.
    case notFound = 3
    /// Network failure after retries: refused, DNS, TLS, timeout, offline cache miss.
    case network = 4
    /// The server refused or failed after retries: HTTP status errors other than not-found.
    case server = 5
    /// The response body is not the expected data (HTML page, truncated, wrong shape).
    case invalidResponse = 6
    /// Interrupted by SIGINT (Ctrl-C).
    case interrupted = 130

    /// The exit code of a kind of failure: the tools' table of failure classes.
    ///
    /// Wire failures, redirects refused and offline cache misses are network failures (4); not found is 3; error
    /// statuses and bot protection are server failures (5); unreadable answers are invalid responses (6); requests
    /// that cannot be made are usage errors (2), since on the command line they come from what the user typed;
    /// cancellation is an interruption (130).
    public init(_ kind: FailureKind) {
        switch kind {
        case .unreachable, .connectionFailed, .timedOut, .notCached, .redirectRefused: self = .network
        case .notFound: self = .notFound
        case .serverError, .blocked: self = .server
        case .invalidResponse: self = .invalidResponse
        case .invalidRequest: self = .usage
        case .appFailure: self = .failure
        case .cancelled: self = .interrupted
        }
    }

    /// The table printed at the end of each tool's help.
    public static let helpTable = """
        Exit codes:
          0    success (an empty result included)
          1    a local failure: a file could not be read or written (a full disk, a refused folder)
          2    usage error
          3    not found
          4    network failure (refused, DNS, TLS, timeout, offline cache miss)
          5    the server refused or failed (HTTP error status)
          6    invalid response (not the expected JSON)
          130  interrupted
        """
}
