import Errand
import Foundation

/// Every failure the Met SDK reports, each a distinct case with one sentence for an end user (``userMessage``, also its
/// `description` and `localizedDescription`) and the details for the log (``debugDescription``), by the rule of
/// `DescribedError`.
public enum MetError: Error, Sendable {
    /// The Met has no such object, or no such resource (HTTP 404 `{"message":"ObjectID not found"}`).
    case notFound(objectID: Int?, message: String)
    /// The object exists but the API does not serve it, as for some loans (`{"message":"Not a valid object"}`).
    case notAvailable(objectID: Int?, message: String)
    /// The Met's bot protection refused the request (HTTP 403 with an HTML page), usually after more than ~80 requests
    /// per second. Wait before sending more.
    case blocked(StatusFailure)
    /// The collection service is down (HTTP 503), still after the client's retries.
    case serviceUnavailable(StatusFailure)
    /// The request is not valid (the reason says why): caught before sending, or refused by the Met with HTTP 400.
    case invalidQuery(String)
    /// Any other failure of the request: the wire, an unexpected status, a body that did not decode, cancellation.
    case request(ErrandError)
}

extension MetError: DescribedError {
    /// One sentence fit to show an end user, in `Localization.language` (from this module's string tables, English
    /// and German; an app's `Localization.overrides` apply, with the keys `met.…`).
    public var userMessage: String { userMessage(in: Localization.language) }

    /// The sentence of ``userMessage`` in a language of `Localization.shippedLanguages`, English for any other.
    public func userMessage(in language: String) -> String {
        func sentence(_ key: String, _ values: [String: String] = [:]) -> String {
            Localization.sentence(key, in: .module, language: language, values: values)
        }
        switch self {
        case .notFound(let objectID?, _): return sentence("met.notFound", ["objectID": String(objectID)])
        case .notFound(nil, _): return sentence("met.notFound.noObject")
        case .notAvailable(let objectID?, _): return sentence("met.notAvailable", ["objectID": String(objectID)])
        case .notAvailable(nil, _): return sentence("met.notAvailable.noObject")
        case .blocked: return sentence("met.blocked")
        case .serviceUnavailable: return sentence("met.serviceUnavailable")
        case .invalidQuery(let reason): return sentence("met.invalidQuery", ["reason": reason])
        case .request(let error): return error.userMessage(in: language)
        }
    }

    /// The details a developer needs: the case, the service's message, the underlying failure.
    public var debugDescription: String {
        switch self {
        case .notFound(let objectID, let message):
            return "MetError.notFound(objectID: \(objectID.map(String.init) ?? "nil")): \(message)"
        case .notAvailable(let objectID, let message):
            return "MetError.notAvailable(objectID: \(objectID.map(String.init) ?? "nil")): \(message)"
        case .blocked(let failure):
            return "MetError.blocked: \(ErrandError.blocked(failure).debugDescription)"
        case .serviceUnavailable(let failure):
            return "MetError.serviceUnavailable: \(ErrandError.unacceptableStatus(failure).debugDescription)"
        case .invalidQuery(let reason):
            return "MetError.invalidQuery: \(reason)"
        case .request(let error):
            return "MetError.request: \(error.debugDescription)"
        }
    }

    /// Whether the failure concerns one object only (missing or not available), so a bulk fetch skips it and goes on.
    public var isObjectSpecific: Bool {
        switch self {
        case .notFound(_?, _), .notAvailable: return true
        default: return false
        }
    }

    /// Whether the request was cancelled.
    public var isCancellation: Bool {
        if case .request(.cancelled) = self { return true }
        return false
    }
}

extension MetError {
    /// The Met's JSON error body, `{"message": "…"}`.
    private struct ServiceMessage: Decodable {
        var message: String
    }

    /// The message the Met sends for loans and other objects it lists but does not serve.
    static let notValidObjectMessage = "Not a valid object"

    /// Reads an Errand failure in the Met's terms, for a request about `objectID` (if any).
    init(_ error: ErrandError, objectID: Int? = nil) {
        switch error {
        case .blocked(let failure):
            self = .blocked(failure)
        case .unacceptableStatus(let failure):
            let message = (try? JSONDecoder().decode(ServiceMessage.self, from: Data(failure.bodyExcerpt.utf8)))?
                .message
            if let message, message.caseInsensitiveCompare(Self.notValidObjectMessage) == .orderedSame {
                self = .notAvailable(objectID: objectID, message: message)
            } else if failure.status == 404 {
                self = .notFound(objectID: objectID, message: message ?? "Not Found")
            } else if failure.status == 400, let message {
                self = .invalidQuery("the Met answered \"\(message)\".")
            } else if failure.status == 503 {
                self = .serviceUnavailable(failure)
            } else {
                self = .request(error)
            }
        default:
            self = .request(error)
        }
    }
}
