import Errand

/// What kind of trouble a failure is: the one classification every front end shares.
///
/// The apps word one sentence per kind (``FailureWording``); the command-line tools give each kind an exit code.
/// Errand's errors are classified here; an SDK's own errors are classified by its feature module, into these kinds.
public enum FailureKind: String, Sendable, Hashable, CaseIterable {
    /// The service could not be reached at all: the connection was refused or its name was not found.
    case unreachable
    /// The connection failed on the way: TLS, a dropped connection, another failure of the transfer.
    case connectionFailed
    /// The service did not answer in time.
    case timedOut
    /// Offline, and the answer was not in the cache.
    case notCached
    /// The service redirected too often, or from https to plain http.
    case redirectRefused
    /// What was asked for does not exist or is not served.
    case notFound
    /// The service answered with an error status or is unavailable.
    case serverError
    /// The service's bot protection answered instead of the service (a 403 with a web page).
    case blocked
    /// The answer could not be read: not the expected data, cut off, or too large.
    case invalidResponse
    /// The request could not be made: a malformed or insecure address, a header or body that cannot be sent,
    /// a query the service would refuse.
    case invalidRequest
    /// The work was cancelled; not a failure to report.
    case cancelled
    /// The app's own code (a middleware, a hook) failed: nothing the user or the service did.
    case appFailure

    /// Classifies a client error.
    public init(_ error: ErrandError) {
        switch error {
        case .transport(let failure):
            switch failure.kind {
            case .cannotConnect, .dnsFailure, .proxy: self = .unreachable
            case .tls, .connectionLost, .other: self = .connectionFailed
            case .timedOut: self = .timedOut
            case .tooManyRedirects, .insecureRedirect: self = .redirectRefused
            case .badResponse: self = .invalidResponse
            // A replay answers from its recording as an offline run answers from the cache.
            case .notRecorded: self = .notCached
            }
        case .notCached: self = .notCached
        case .unacceptableStatus(let failure): self = failure.status == 404 ? .notFound : .serverError
        case .blocked: self = .blocked
        case .decoding, .bodyTooLarge: self = .invalidResponse
        case .invalidURL, .insecureURL, .invalidRequest: self = .invalidRequest
        case .cancelled: self = .cancelled
        case .app: self = .appFailure
        }
    }
}
