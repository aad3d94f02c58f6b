import Errand
import Foundation

/// Every transport the conformance suite runs against. Parameterize wire tests with `TransportKind.allCases`.
public enum TransportKind: String, CaseIterable, Sendable, CustomStringConvertible {
    /// Foundation's URLSession.
    case urlSession
    #if canImport(CCurl)
    /// libcurl's multi interface (absent where libcurl is: iOS and the `ERRAND_NO_CURL=1` build).
    case curl
    #endif

    /// A new transport of this kind, trusting the test CA where the transport can.
    ///
    /// URLSession on Linux trusts only the system store, so it reaches the TLS server only where the test CA was
    /// installed there; the curl transport trusts `ERRAND_TEST_CA` directly.
    public func make() -> any Transport {
        switch self {
        case .urlSession:
            return URLSessionTransport()
        #if canImport(CCurl)
        case .curl:
            return CurlTransport(configuration: .init(caBundle: TestServer.certificateAuthority))
        #endif
        }
    }

    /// The kind's name.
    public var description: String { rawValue }
}
