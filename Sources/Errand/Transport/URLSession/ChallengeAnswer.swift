import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// How ``URLSessionTransport`` answers an authentication challenge, decided from the challenge's protection space
/// alone so that the rule is the same on every platform and testable without a socket.
///
/// Errand sends credentials as header fields itself (`Authorization`, ``APIKey``, ``TokenRefreshMiddleware``), so a
/// request for credentials is an answer for the caller, never a prompt. Every other challenge — server trust and
/// client certificates, which only Apple's URLSession sends, or a method this list does not know — gets URLSession's
/// own handling: a server's certificate is evaluated against the system's trust store, exactly as without a delegate.
/// Answering server trust with anything that cancels would fail every HTTPS request on Apple platforms.
enum ChallengeAnswer: Equatable, Sendable {
    /// URLSession's default handling (`.performDefaultHandling` without a credential).
    case defaultHandling
    /// The server (401) or a proxy (407) asks for credentials: the exchange reports that status to the caller, and
    /// the challenge is cancelled.
    case reportStatus(Int)

    /// The methods with which a server or proxy asks for a user's credentials.
    static let credentialMethods: Set<String> = [
        NSURLAuthenticationMethodDefault, NSURLAuthenticationMethodHTTPBasic, NSURLAuthenticationMethodHTTPDigest,
        NSURLAuthenticationMethodNTLM, NSURLAuthenticationMethodNegotiate,
    ]

    /// The answer to a challenge for `space`.
    init(_ space: URLProtectionSpace) {
        guard Self.credentialMethods.contains(space.authenticationMethod) else {
            // Server trust is where Apple-only trust options (a custom CA, pinning) would hook in.
            self = .defaultHandling
            return
        }
        self = .reportStatus(space.isProxy() ? 407 : 401)
    }

    /// The disposition URLSession receives.
    var disposition: URLSession.AuthChallengeDisposition {
        switch self {
        case .defaultHandling: return .performDefaultHandling
        case .reportStatus: return .cancelAuthenticationChallenge
        }
    }
}
