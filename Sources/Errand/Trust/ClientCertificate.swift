import Foundation

/// A certificate and private key that a transport presents to a server asking for one (mutual TLS).
///
/// ``CurlTransport`` takes PEM (either part from a file or from memory) and PKCS#12; ``URLSessionTransport`` on Apple
/// platforms takes PKCS#12 (imported with `SecPKCS12Import`) and a keychain identity (`init(identity:)`). An encrypted
/// key or archive takes a ``Passphrase``, which never appears in a description, a `dump`, an error or a curl command.
///
/// ```swift
/// var configuration = CurlTransport.Configuration()
/// configuration.clientCertificate = ClientCertificate(
///     certificate: .file(URL(fileURLWithPath: "client.pem")), key: .file(URL(fileURLWithPath: "client.key")),
///     passphrase: .file(URL(fileURLWithPath: "client.pass")))
/// ```
public struct ClientCertificate: Sendable, Hashable {
    /// Where the certificate (or the key) comes from.
    public enum Source: Sendable, Hashable {
        /// A PEM file, read by libcurl when a connection needs it.
        case file(URL)
        /// PEM text already in memory.
        case pem(Data)
        /// A PKCS#12 archive (`.p12`, `.pfx`) in memory, holding the certificate and its key; its passphrase is
        /// ``ClientCertificate/passphrase``.
        case pkcs12(Data)
        #if canImport(Security)
        /// An identity from the keychain (Apple platforms, URLSession only).
        case identity(ClientIdentity)
        #endif
    }

    /// The certificate, optionally followed by the chain up to the server's trusted CA.
    public var certificate: Source
    /// The private key; `nil` when it follows the certificate in the same PEM.
    public var key: Source?
    /// The passphrase of an encrypted key; `nil` for a key stored in the clear.
    public var passphrase: Passphrase?

    /// Creates a client certificate.
    public init(certificate: Source, key: Source? = nil, passphrase: Passphrase? = nil) {
        self.certificate = certificate
        self.key = key
        self.passphrase = passphrase
    }

    /// A certificate and key from a PKCS#12 archive, the form both transports take.
    public init(pkcs12: Data, passphrase: Passphrase?) {
        self.init(certificate: .pkcs12(pkcs12), passphrase: passphrase)
    }

    /// Whether it is a form that URLSession can present (PKCS#12 or an identity), not PEM.
    var isIdentity: Bool {
        switch certificate {
        case .file, .pem: return false
        case .pkcs12: return true
        #if canImport(Security)
        case .identity: return true
        #endif
        }
    }

    /// The passphrase of an encrypted private key, from memory or from a file; it describes itself as `***`.
    public struct Passphrase: Sendable, Hashable, CustomStringConvertible, CustomReflectable {
        enum Storage: Hashable {
            case text(String)
            case file(URL)
        }

        let storage: Storage

        /// A passphrase held in memory.
        public init(_ text: String) { storage = .text(text) }

        /// A passphrase read from a file when the transport starts (one trailing line break is dropped), so it need
        /// not be held in the app's own configuration.
        public static func file(_ url: URL) -> Passphrase { Passphrase(storage: .file(url)) }

        private init(storage: Storage) { self.storage = storage }

        /// The text, read from the file when it comes from one.
        func resolved() throws(ErrandError) -> String {
            switch storage {
            case .text(let text):
                return text
            case .file(let url):
                guard let data = FileManager.default.contents(atPath: url.path),
                    var text = String(data: data, encoding: .utf8)
                else { throw .invalidRequest("the passphrase file \(url.path) cannot be read.") }
                if text.hasSuffix("\n") { text.removeLast() }
                if text.hasSuffix("\r") { text.removeLast() }
                return text
            }
        }

        /// Always the mask.
        public var description: String { Redaction.mask }

        /// No children, so that `dump` and debuggers never show the passphrase.
        public var customMirror: Mirror { Mirror(self, children: []) }
    }
}
