import Foundation

/// Which servers a transport trusts, the same on both transports: certificate authorities of the app's own (in
/// place of the system's, or beside them) and public keys to pin.
///
/// ``CurlTransport`` hands it to libcurl (`CURLOPT_CAINFO_BLOB`, `CURLOPT_PINNEDPUBLICKEY`); ``URLSessionTransport``
/// on Apple platforms evaluates it in URLSession's server-trust challenge. Trust is only ever narrowed or moved to the
/// app's anchors: a certificate is still checked for its chain, dates and host name, and a pin is checked only on a
/// chain found trusted.
///
/// ```swift
/// let trust = ServerTrust(
///     anchors: try ServerTrust.Anchor.certificates(pem: Data(contentsOf: URL(fileURLWithPath: "ca.pem"))),
///     pins: [try PublicKeyPin("sha256//YhKJKSzoTt2b5FP18fvpHo7fJYqQCjAa3HWY3tvRMwE=")])
/// ```
public struct ServerTrust: Sendable, Hashable {
    /// The certificate authorities trusted for servers; empty trusts the system's.
    public var anchors: [Anchor]
    /// With ``anchors``, whether they replace the system's trust store (`true`, the default, as libcurl's CA bundle
    /// does) or are trusted beside it (`false`). Without anchors it does nothing.
    public var anchorsOnly: Bool
    /// The public keys the server's certificate must have one of; empty pins nothing.
    public var pins: [PublicKeyPin]

    /// Creates a trust configuration; with no arguments it is the system's trust, unchanged.
    public init(anchors: [Anchor] = [], anchorsOnly: Bool = true, pins: [PublicKeyPin] = []) {
        self.anchors = anchors
        self.anchorsOnly = anchorsOnly
        self.pins = pins
    }

    /// A certificate authority's certificate, checked to be X.509 DER when it is made.
    public struct Anchor: Sendable, Hashable {
        /// The certificate in DER.
        public let der: Data

        /// An anchor from one DER certificate.
        ///
        /// - Throws: ``ErrandError/invalidRequest(_:)`` when the bytes are not an X.509 certificate.
        public init(der: Data) throws(ErrandError) {
            do {
                _ = try X509Certificate(der: [UInt8](der))
            } catch {
                throw .invalidRequest("a trust anchor is not an X.509 certificate: \(error)")
            }
            self.der = der
        }

        /// Every certificate in PEM text (`-----BEGIN CERTIFICATE-----` blocks; other blocks are skipped).
        ///
        /// - Throws: ``ErrandError/invalidRequest(_:)`` when a block is not base64 or not a certificate, or there is
        ///   no certificate at all.
        public static func certificates(pem: Data) throws(ErrandError) -> [Anchor] {
            let blocks = PEMBlocks.certificates(in: String(decoding: pem, as: UTF8.self))
            guard !blocks.isEmpty else { throw .invalidRequest("the PEM text holds no certificate") }
            var anchors: [Anchor] = []
            for block in blocks {
                guard let der = block else { throw .invalidRequest("a PEM certificate block is not base64") }
                anchors.append(try Anchor(der: der))
            }
            return anchors
        }

        /// The certificate as a PEM block, the form libcurl reads.
        var pem: String {
            let lines = der.base64EncodedString(options: [.lineLength64Characters, .endLineWithLineFeed])
            return "-----BEGIN CERTIFICATE-----\n\(lines)\n-----END CERTIFICATE-----\n"
        }
    }
}
