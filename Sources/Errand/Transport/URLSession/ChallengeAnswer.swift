import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// How ``URLSessionTransport`` answers an authentication challenge, decided from the challenge's protection space and
/// the transport's ``ChallengePolicy`` alone, so that the rule is the same on every platform and testable without a
/// socket.
///
/// Errand sends credentials to servers as header fields itself (`Authorization`, ``APIKey``,
/// ``TokenRefreshMiddleware``), so a server's request for credentials is an answer for the caller, never a prompt.
/// A configured proxy's Basic challenge is answered once with its configured credentials, on Apple platforms only.
/// Server trust and client certificates (which only Apple's URLSession sends) follow the policy: without a
/// ``ServerTrust`` or a ``ClientCertificate`` they get URLSession's own handling, exactly as without a delegate.
enum ChallengeAnswer: Equatable, Sendable {
    /// URLSession's default handling (`.performDefaultHandling` without a credential).
    case defaultHandling
    /// The server (401) or a proxy (407) asks for credentials: the exchange reports that status to the caller, and
    /// the challenge is cancelled.
    case reportStatus(Int)
    /// Evaluate the server's chain under this trust (``ServerTrustDecision``), then accept it or cancel.
    case evaluateServerTrust(ServerTrust)
    /// Present this certificate's identity.
    case presentCertificate(ClientCertificate)
    /// The configured certificate cannot be presented here: the exchange fails as an invalid request, for this reason.
    case refuse(String)
    /// Answer the proxy's Basic challenge with these credentials.
    case proxyCredentials(ProxyCredentials)

    static let serverTrustMethod = "NSURLAuthenticationMethodServerTrust"
    static let clientCertificateMethod = "NSURLAuthenticationMethodClientCertificate"

    /// The methods with which a server or proxy asks for a user's credentials.
    static let credentialMethods: Set<String> = [
        NSURLAuthenticationMethodDefault, NSURLAuthenticationMethodHTTPBasic, NSURLAuthenticationMethodHTTPDigest,
        NSURLAuthenticationMethodNTLM, NSURLAuthenticationMethodNegotiate,
    ]

    /// The answer to a challenge for `space`, the `previousFailureCount`-th try at it, under `policy`.
    init(_ space: URLProtectionSpace, previousFailureCount: Int = 0, policy: ChallengePolicy = ChallengePolicy()) {
        switch space.authenticationMethod {
        case Self.serverTrustMethod:
            self = policy.trust.map(ChallengeAnswer.evaluateServerTrust) ?? .defaultHandling
        case Self.clientCertificateMethod:
            self = Self.clientCertificate(policy.clientCertificate)
        case let method where Self.credentialMethods.contains(method):
            guard space.isProxy() else {
                self = .reportStatus(401)
                return
            }
            self = Self.proxy(space, method: method, previousFailureCount: previousFailureCount, policy: policy)
        default:
            self = .defaultHandling
        }
    }

    private static func clientCertificate(_ certificate: ClientCertificate?) -> ChallengeAnswer {
        guard let certificate else { return .defaultHandling }
        guard certificate.isIdentity else {
            return .refuse(
                "URLSession presents a client certificate from PKCS#12 data or an identity, not from PEM files")
        }
        return .presentCertificate(certificate)
    }

    /// Credentials go only to the proxy they were configured for, with Basic, and only once: a second challenge
    /// means the proxy refused them.
    private static func proxy(
        _ space: URLProtectionSpace, method: String, previousFailureCount: Int, policy: ChallengePolicy
    ) -> ChallengeAnswer {
        guard policy.answersProxyChallenges, previousFailureCount == 0,
            method == NSURLAuthenticationMethodHTTPBasic || method == NSURLAuthenticationMethodDefault,
            let credentials = policy.proxyCredentials(host: space.host, port: space.port)
        else { return .reportStatus(407) }
        return .proxyCredentials(credentials)
    }

    /// The disposition URLSession receives for the answers that need no platform work.
    var disposition: URLSession.AuthChallengeDisposition {
        switch self {
        case .defaultHandling: return .performDefaultHandling
        case .reportStatus, .refuse: return .cancelAuthenticationChallenge
        case .evaluateServerTrust, .presentCertificate, .proxyCredentials: return .useCredential
        }
    }
}

/// What a ``URLSessionTransport`` was configured with that its challenges may need.
struct ChallengePolicy: Sendable, Hashable {
    /// The server trust evaluated in server-trust challenges; `nil` leaves them to the system.
    var trust: ServerTrust?
    /// The certificate presented in client-certificate challenges; `nil` presents none.
    var clientCertificate: ClientCertificate?
    /// The proxies whose Basic challenges are answered with their credentials.
    var proxy: ProxySettings = .direct
    /// Whether proxy challenges may be answered with credentials: on Apple platforms only. FoundationNetworking never
    /// uses the configured proxies (it takes the environment's), so a 407 there comes from a proxy Errand did not
    /// choose and is reported.
    var answersProxyChallenges = Self.platformAnswersProxyChallenges

    #if canImport(FoundationNetworking)
    static let platformAnswersProxyChallenges = false
    #else
    static let platformAnswersProxyChallenges = true
    #endif

    /// The credentials of the configured HTTP proxy at `host:port`, if it has any.
    func proxyCredentials(host: String, port: Int) -> ProxyCredentials? {
        let name = host.lowercased().trimmingCharacters(in: CharacterSet(charactersIn: "[]"))
        let match = [proxy.http, proxy.https].compactMap { $0 }.first { server in
            server.kind == .http && server.host.lowercased() == name && server.port == port
        }
        return match?.credentials
    }
}
