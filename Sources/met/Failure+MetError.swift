import CommandLine
import MetMuseum

extension Failure {
    /// The exit class of a Met SDK failure: missing or unserved objects are not-found (3), bot protection and
    /// outages server failures (5), invalid queries usage errors (2), the rest by their Errand class.
    init(_ error: MetError) {
        switch error {
        case .notFound, .notAvailable:
            self.init(.notFound, error.userMessage, detail: error.debugDescription)
        case .blocked, .serviceUnavailable:
            self.init(.server, error.userMessage, detail: error.debugDescription)
        case .invalidQuery:
            self.init(.usage, error.userMessage, detail: error.debugDescription)
        case .request(let underlying):
            self.init(underlying)
        }
    }
}
