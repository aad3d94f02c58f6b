/// The keys of the failure sentences in the feature modules' string tables: the kinds that read the same to a user
/// share one.
public enum FailureSentenceKey {
    /// The table key of a kind's sentence, as `failure.offline`.
    public static func key(for kind: FailureKind) -> String {
        switch kind {
        case .unreachable, .connectionFailed, .notCached: return "failure.offline"
        case .timedOut: return "failure.timedOut"
        case .redirectRefused, .serverError, .blocked: return "failure.trouble"
        case .notFound: return "failure.notFound"
        case .invalidResponse: return "failure.invalidResponse"
        case .invalidRequest: return "failure.invalidRequest"
        case .appFailure: return "failure.appFailure"
        case .cancelled: return "failure.cancelled"
        }
    }
}
