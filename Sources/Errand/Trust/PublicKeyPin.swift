import Foundation

/// A server public key to accept: the SHA-256 of its SubjectPublicKeyInfo, written as libcurl writes it,
/// `sha256//<base64>`.
///
/// Make the text from a certificate with
/// `openssl x509 -in server.pem -pubkey -noout | openssl pkey -pubin -outform der | openssl dgst -sha256 -binary | base64`.
/// A pin matches the leaf certificate's key only (as libcurl's `CURLOPT_PINNEDPUBLICKEY` does), and only after the
/// chain itself was found trusted: a pin narrows trust, it never replaces it.
public struct PublicKeyPin: Sendable, Hashable, CustomStringConvertible {
    /// The 32 bytes of the digest.
    public let sha256: [UInt8]

    /// A pin from a digest's 32 bytes.
    init(sha256: [UInt8]) {
        self.sha256 = sha256
    }

    /// Reads `sha256//<base64>` (a single pin; ``ServerTrust/init(anchors:anchorsOnly:pins:)`` takes several).
    ///
    /// - Throws: ``ErrandError/invalidRequest(_:)`` when the text is not `sha256//` followed by the base64 of 32 bytes.
    public init(_ text: String) throws(ErrandError) {
        let prefix = "sha256//"
        let trimmed = text.trimmingCharacters(in: .whitespaces)
        guard trimmed.hasPrefix(prefix), let data = Data(base64Encoded: String(trimmed.dropFirst(prefix.count))),
            data.count == 32
        else {
            throw .invalidRequest("the public-key pin \(trimmed) is not sha256// followed by the base64 of 32 bytes")
        }
        sha256 = [UInt8](data)
    }

    /// Reads pins separated by `;`, the form of `CURLOPT_PINNEDPUBLICKEY` (`sha256//a;sha256//b`).
    static func list(_ text: String) throws(ErrandError) -> [PublicKeyPin] {
        var pins: [PublicKeyPin] = []
        for part in text.split(separator: ";", omittingEmptySubsequences: false) {
            pins.append(try PublicKeyPin(String(part)))
        }
        return pins
    }

    /// `sha256//<base64>`.
    public var description: String {
        "sha256//" + Data(sha256).base64EncodedString()
    }
}
