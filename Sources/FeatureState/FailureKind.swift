import Errand

/// What kind of trouble a failure is, from the user's point of view: each feature words one sentence per kind.
public enum FailureKind: String, Sendable, Hashable, CaseIterable {
    /// No connection: refused, DNS, TLS, connection lost, or not cached while offline.
    case offline
    /// The service did not answer in time.
    case timedOut
    /// The service answered with an error status, is down, or blocked the requests.
    case serverTrouble
    /// What was asked for does not exist or is not served.
    case notFound
    /// The answer could not be read.
    case invalidData
    /// Anything else (a request that could not be made).
    case unexpected

    /// Classifies a client error.
    public init(_ error: ErrandError) {
        switch error {
        case .transport(let failure):
            switch failure.kind {
            case .timedOut: self = .timedOut
            case .badResponse: self = .invalidData
            case .cannotConnect, .dnsFailure, .tls, .connectionLost: self = .offline
            case .tooManyRedirects, .insecureRedirect, .other: self = .serverTrouble
            }
        case .notCached: self = .offline
        case .unacceptableStatus(let failure): self = failure.status == 404 ? .notFound : .serverTrouble
        case .blocked: self = .serverTrouble
        case .decoding, .bodyTooLarge: self = .invalidData
        case .invalidURL, .insecureURL, .invalidRequest, .cancelled: self = .unexpected
        }
    }
}
