#if canImport(CCurl)
import Foundation

extension CurlTransport {
    /// How a ``CurlTransport`` connects: trust, pinning, connection limits, protocol and streaming buffer.
    public struct Configuration: Sendable, Hashable {
        /// A PEM file of CA certificates to trust instead of the system's trust store; `nil` trusts the system store.
        public var caBundle: URL?
        /// The server public keys to accept, in libcurl's `CURLOPT_PINNEDPUBLICKEY` form: `sha256//<base64>`
        /// hashes separated by `;`, or the path of a PEM/DER public key. A server whose key does not match fails
        /// with a ``TransportFailure/Kind/tls`` failure. `nil` pins nothing.
        public var pinnedPublicKey: String?
        /// The most connections open to one host at a time for requests, and as many again for streams (event
        /// streams, downloads, streamed bodies), so that long streams never starve requests; further transfers wait
        /// for a free connection (or share one over HTTP/2). Default 8.
        public var maxConnectionsPerHost: Int
        /// The most connections open in total; `nil` for no limit beyond the per-host one.
        public var maxConnections: Int?
        /// Whether to negotiate HTTP/2 over TLS (plain `http` always uses HTTP/1.1). Default `true`.
        public var prefersHTTP2: Bool
        /// The most bytes a streamed body buffers before the transfer pauses until the reader catches up.
        /// Default 1 MiB.
        public var streamBufferSize: Int

        /// Which proxy each request goes through. Default ``ProxySettings/direct``: none, whatever the environment
        /// says; pass ``ProxySettings/environment(_:)`` to honour `https_proxy`, `NO_PROXY` and the rest.
        public var proxy: ProxySettings = .direct
        /// The Unix-domain socket every connection is made to, instead of the URL's host and port (which still name
        /// the server in `Host` and the TLS handshake); `nil` connects over TCP. A daemon such as Docker's listens on
        /// one: `http://localhost/v1.43/containers/json` over `/var/run/docker.sock`.
        public var unixSocketPath: String?
        /// The certificate and key presented to servers that ask for one (mutual TLS); `nil` presents none.
        public var clientCertificate: ClientCertificate?
        /// The anchors and pins servers are checked against, the same type ``URLSessionTransport`` takes; when set,
        /// it replaces ``caBundle`` and ``pinnedPublicKey``, which are then ignored. `nil` uses those two.
        public var trust: ServerTrust?

        /// Creates a configuration; every argument has the default described on its property.
        public init(
            caBundle: URL? = nil, pinnedPublicKey: String? = nil, maxConnectionsPerHost: Int = 8,
            maxConnections: Int? = nil, prefersHTTP2: Bool = true, streamBufferSize: Int = 1 << 20
        ) {
            self.caBundle = caBundle
            self.pinnedPublicKey = pinnedPublicKey
            self.maxConnectionsPerHost = max(1, maxConnectionsPerHost)
            self.maxConnections = maxConnections.map { max(1, $0) }
            self.prefersHTTP2 = prefersHTTP2
            self.streamBufferSize = max(16 * 1024, streamBufferSize)
        }

        /// The idle connections kept open for reuse: the total limit when there is one, else both lanes' worth for
        /// four hosts (64 by default). libcurl's own default follows the transfers in progress (four per handle
        /// added), so a lull between two bursts closed the oldest idle connection and the next burst opened another.
        var idleConnectionsKept: Int {
            maxConnections ?? 4 * 2 * maxConnectionsPerHost
        }
    }
}
#endif
