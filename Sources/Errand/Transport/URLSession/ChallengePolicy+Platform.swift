import Foundation

extension ChallengePolicy {
    /// Whether this platform's URLSession sends the challenges in which the policy's trust and client certificate are
    /// applied: Apple's does, FoundationNetworking on Linux never does.
    #if canImport(FoundationNetworking)
    static let platformSendsTLSChallenges = false
    #else
    static let platformSendsTLSChallenges = true
    #endif

    /// Fails a request that would otherwise go out without the configured trust or certificate: an https request on a
    /// platform that sends no TLS challenges. Failing closed matters most for pins, which would silently not apply.
    func checkEnforceable(
        for url: URL, sendsTLSChallenges: Bool = ChallengePolicy.platformSendsTLSChallenges
    ) throws(ErrandError) {
        guard !sendsTLSChallenges, trust != nil || clientCertificate != nil, url.scheme?.lowercased() == "https"
        else { return }
        throw .invalidRequest(
            "URLSession on Linux cannot apply a ServerTrust or a client certificate (FoundationNetworking asks for "
                + "neither); use CurlTransport for them")
    }
}
