/// The exit statuses of the command-line tools; each failure class has its own.
public enum ExitCode: Int32, Sendable, Hashable, CaseIterable {
    /// Success, including an empty result.
    case success = 0
    /// A failure that fits no other class (a file that could not be written, say).
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

    /// The table printed at the end of each tool's help.
    public static let helpTable = """
        Exit codes:
          0    success (an empty result included)
          2    usage error
          3    not found
          4    network failure (refused, DNS, TLS, timeout, offline cache miss)
          5    the server refused or failed (HTTP error status)
          6    invalid response (not the expected JSON)
          130  interrupted
        """
}
