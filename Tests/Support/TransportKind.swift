import Errand
import Foundation

/// Every transport the conformance suite runs against. Parameterize wire tests with `TransportKind.allCases`.
public enum TransportKind: String, CaseIterable, Sendable, CustomStringConvertible {
    /// Foundation's URLSession.
    case urlSession

    /// A new transport of this kind, trusting the test CA where the transport can.
    public func make() -> any Transport {
        switch self {
        case .urlSession: return URLSessionTransport()
        }
    }

    /// The kind's name.
    public var description: String { rawValue }
}
