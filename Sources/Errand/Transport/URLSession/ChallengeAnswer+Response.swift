import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// What the session delegate hands URLSession for a challenge, and the failure the exchange reports when the answer
/// refuses the connection (a cancelled challenge alone would surface as a cancellation).
struct ChallengeResponse {
    var disposition: URLSession.AuthChallengeDisposition
    var credential: URLCredential?
    var failure: ErrandError?
}

extension ChallengeAnswer {
    /// Carries the answer out for `challenge`, met by a request to `url`.
    func response(to challenge: URLAuthenticationChallenge, url: URL?) -> ChallengeResponse {
        switch self {
        case .defaultHandling, .reportStatus:
            return ChallengeResponse(disposition: disposition)
        case .refuse(let reason):
            return ChallengeResponse(disposition: .cancelAuthenticationChallenge, failure: .invalidRequest(reason))
        case .proxyCredentials(let credentials):
            // Kept for this session only; the transport's session has no credential storage to write them to.
            let credential = URLCredential(
                user: credentials.user, password: credentials.password, persistence: .forSession)
            return ChallengeResponse(disposition: .useCredential, credential: credential)
        case .evaluateServerTrust(let trust):
            return Self.serverTrustResponse(challenge, trust: trust, url: url)
        case .presentCertificate(let certificate):
            return Self.clientCertificateResponse(certificate)
        }
    }

    /// The failure of a refused server certificate, worded as a TLS failure like curl's.
    static func trustFailure(_ reason: String, url: URL?) -> ErrandError {
        .transport(TransportFailure(kind: .tls, url: url, underlying: reason))
    }

    #if !canImport(Security)
    // Without Security there is no chain to read and no identity to make; FoundationNetworking sends neither
    // challenge, so these fail closed rather than letting a connection through unchecked.
    private static func serverTrustResponse(
        _ challenge: URLAuthenticationChallenge, trust: ServerTrust, url: URL?
    ) -> ChallengeResponse {
        ChallengeResponse(
            disposition: .cancelAuthenticationChallenge,
            failure: trustFailure("this platform's URLSession cannot evaluate a custom server trust", url: url))
    }

    private static func clientCertificateResponse(_ certificate: ClientCertificate) -> ChallengeResponse {
        ChallengeResponse(
            disposition: .cancelAuthenticationChallenge,
            failure: .invalidRequest("this platform's URLSession cannot present a client certificate"))
    }
    #endif
}
