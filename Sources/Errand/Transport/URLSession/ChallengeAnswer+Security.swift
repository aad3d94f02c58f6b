#if canImport(Security)
import Foundation
import Security

/// A keychain identity (a certificate and its private key) to present as a client certificate.
public struct ClientIdentity: @unchecked Sendable, Hashable {
    // @unchecked: a SecIdentity is an immutable Core Foundation object, and Security's objects may be used from any
    // thread.
    /// The identity.
    public let identity: SecIdentity

    /// Wraps `identity`.
    public init(_ identity: SecIdentity) { self.identity = identity }

    /// Whether both are the same identity.
    public static func == (lhs: ClientIdentity, rhs: ClientIdentity) -> Bool { CFEqual(lhs.identity, rhs.identity) }

    /// Hashes the identity as Core Foundation does.
    public func hash(into hasher: inout Hasher) { hasher.combine(CFHash(identity)) }
}

extension ClientCertificate {
    /// A keychain identity, presented by ``URLSessionTransport`` on Apple platforms (``CurlTransport`` takes PEM or
    /// PKCS#12 instead).
    public init(identity: SecIdentity) {
        self.init(certificate: .identity(ClientIdentity(identity)))
    }
}

// The Apple-only part of the challenges: set anchors, evaluate, read the chain as DER; import an identity. The
// decisions are ``ChallengeAnswer`` and ``ServerTrustDecision``, tested on Linux.
extension ChallengeAnswer {
    static func serverTrustResponse(
        _ challenge: URLAuthenticationChallenge, trust: ServerTrust, url: URL?
    ) -> ChallengeResponse {
        guard let serverTrust = challenge.protectionSpace.serverTrust else {
            return ChallengeResponse(
                disposition: .cancelAuthenticationChallenge,
                failure: trustFailure("the server-trust challenge carries no certificates", url: url))
        }
        switch evaluate(serverTrust, under: trust) {
        case .accept:
            return ChallengeResponse(disposition: .useCredential, credential: URLCredential(trust: serverTrust))
        case .reject(let reason):
            return ChallengeResponse(
                disposition: .cancelAuthenticationChallenge, failure: trustFailure(reason, url: url))
        }
    }

    private static func evaluate(_ serverTrust: SecTrust, under trust: ServerTrust) -> ServerTrustDecision {
        if !trust.anchors.isEmpty {
            let anchors = trust.anchors.compactMap { SecCertificateCreateWithData(nil, $0.der as CFData) }
            SecTrustSetAnchorCertificates(serverTrust, anchors as CFArray)
            SecTrustSetAnchorCertificatesOnly(serverTrust, trust.anchorsOnly)
        }
        var error: CFError?
        let trusted = SecTrustEvaluateWithError(serverTrust, &error)
        let certificates = SecTrustCopyCertificateChain(serverTrust) as? [SecCertificate] ?? []
        let chain = certificates.map { [UInt8](SecCertificateCopyData($0) as Data) }
        let failure: String? =
            trusted ? nil : error.map { CFErrorCopyDescription($0) as String } ?? "refused by the system"
        return ServerTrustDecision(trust, chain: chain, evaluationFailure: failure)
    }

    static func clientCertificateResponse(_ certificate: ClientCertificate) -> ChallengeResponse {
        switch certificate.certificate {
        case .identity(let identity):
            return ChallengeResponse(
                disposition: .useCredential,
                credential: URLCredential(identity: identity.identity, certificates: nil, persistence: .forSession))
        case .pkcs12(let data):
            do {
                let (identity, chain) = try importIdentity(data, passphrase: certificate.passphrase)
                let credential = URLCredential(identity: identity, certificates: chain, persistence: .forSession)
                return ChallengeResponse(disposition: .useCredential, credential: credential)
            } catch {
                return ChallengeResponse(disposition: .cancelAuthenticationChallenge, failure: error)
            }
        case .file, .pem:
            return ChallengeResponse(
                disposition: .cancelAuthenticationChallenge,
                failure: .invalidRequest("URLSession presents a client certificate from PKCS#12 data or an identity"))
        }
    }

    /// The archive's identity and the certificates after it in its chain.
    private static func importIdentity(
        _ data: Data, passphrase: ClientCertificate.Passphrase?
    ) throws(ErrandError) -> (SecIdentity, [Any]) {
        let text = try passphrase?.resolved() ?? ""
        let options = [kSecImportExportPassphrase as String: text] as CFDictionary
        var items: CFArray?
        let status = SecPKCS12Import(data as CFData, options, &items)
        guard status == errSecSuccess, let first = (items as? [[String: Any]])?.first,
            let found = first[kSecImportItemIdentity as String],
            CFGetTypeID(found as CFTypeRef) == SecIdentityGetTypeID()
        else {
            throw .invalidRequest(
                "the PKCS#12 client certificate cannot be opened (status \(status)): a wrong passphrase or damaged data"
            )
        }
        let identity = unsafeDowncast(found as AnyObject, to: SecIdentity.self)
        let chain = (first[kSecImportItemCertChain as String] as? [Any] ?? []).dropFirst()
        return (identity, Array(chain))
    }
}
#endif
