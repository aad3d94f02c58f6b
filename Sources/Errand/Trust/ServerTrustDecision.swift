/// The verdict on a server's certificate chain under a ``ServerTrust``, decided in plain Swift from what the platform
/// reports: the chain's certificates in DER (the server's own first) and whether the platform's evaluation, with the
/// configuration's anchors set, found the chain trusted.
///
/// The platform-specific part only sets the anchors, evaluates and reads the chain; everything that could be wrong
/// about pins lives here, and is tested on Linux with real certificates.
enum ServerTrustDecision: Equatable, Sendable {
    /// The chain is trusted and, if pins were asked for, the server's key is one of them.
    case accept
    /// The connection must not go on; the reason is for the developer's log.
    case reject(String)

    /// Decides for `trust` from the chain (leaf first) and the platform's evaluation: `nil` when it accepted,
    /// otherwise its reason.
    init(_ trust: ServerTrust, chain: [[UInt8]], evaluationFailure: String?) {
        if let evaluationFailure {
            self = .reject("the server's certificate is not trusted: \(evaluationFailure)")
            return
        }
        guard !trust.pins.isEmpty else {
            self = .accept
            return
        }
        guard let leaf = chain.first else {
            self = .reject("the server presented no certificate to check against the pinned keys")
            return
        }
        let certificate: X509Certificate
        do {
            certificate = try X509Certificate(der: leaf)
        } catch {
            self = .reject("the server's certificate cannot be read to check its key: \(error)")
            return
        }
        let pin = certificate.publicKeyPin
        self =
            trust.pins.contains(pin)
            ? .accept : .reject("the server's public key (\(pin)) matches none of the pinned keys")
    }
}
