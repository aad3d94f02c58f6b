import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// The timings of one URLSession transaction as plain values, turned into ``TransferMetrics``.
///
/// Apple's URLSession reports them to the session delegate (`urlSession(_:task:didFinishCollecting:)`) just before
/// the task completes; FoundationNetworking on Linux never does, so there the transport's metrics are its own
/// first-byte and total times (FoundationNetworking declares the remote address and the ports but, delivering no
/// transaction metrics, never fills them: there a transfer's address is unknown). Durations count from the transaction's fetch start, as libcurl's do from its start:
/// `connect` is the TCP connection (before TLS), `tls` the end of the handshake.
struct TransactionTimings: Equatable, Sendable {
    var fetchStart: Date?
    var domainLookupEnd: Date?
    var connectEnd: Date?
    var secureConnectionStart: Date?
    var secureConnectionEnd: Date?
    var responseStart: Date?
    /// The ALPN name: `http/1.1`, `h2`, `h3`.
    var protocolName: String?
    var isReusedConnection: Bool
    var remoteAddress: String?
    var remotePort: Int?
    var localPort: Int?

    init(
        fetchStart: Date? = nil, domainLookupEnd: Date? = nil, connectEnd: Date? = nil,
        secureConnectionStart: Date? = nil, secureConnectionEnd: Date? = nil, responseStart: Date? = nil,
        protocolName: String? = nil, isReusedConnection: Bool = false, remoteAddress: String? = nil,
        remotePort: Int? = nil, localPort: Int? = nil
    ) {
        self.fetchStart = fetchStart
        self.domainLookupEnd = domainLookupEnd
        self.connectEnd = connectEnd
        self.secureConnectionStart = secureConnectionStart
        self.secureConnectionEnd = secureConnectionEnd
        self.responseStart = responseStart
        self.protocolName = protocolName
        self.isReusedConnection = isReusedConnection
        self.remoteAddress = remoteAddress
        self.remotePort = remotePort
        self.localPort = localPort
    }

    init(_ transaction: URLSessionTaskTransactionMetrics) {
        self.init(
            fetchStart: transaction.fetchStartDate, domainLookupEnd: transaction.domainLookupEndDate,
            connectEnd: transaction.connectEndDate, secureConnectionStart: transaction.secureConnectionStartDate,
            secureConnectionEnd: transaction.secureConnectionEndDate, responseStart: transaction.responseStartDate,
            protocolName: transaction.networkProtocolName, isReusedConnection: transaction.isReusedConnection,
            remoteAddress: transaction.remoteAddress, remotePort: Self.port(transaction.remotePort),
            localPort: Self.port(transaction.localPort))
    }

    /// Fills in what the transaction measured; what it did not (a reused connection has no DNS or connect time)
    /// stays as it was.
    func apply(to metrics: inout TransferMetrics) {
        guard let fetchStart else { return }
        // Whole microseconds: a Date is a Double of seconds since 2001, which carries no finer time honestly.
        func since(_ date: Date?) -> Duration? {
            date.map { .microseconds(Int64((max(0, $0.timeIntervalSince(fetchStart)) * 1_000_000).rounded())) }
        }
        metrics.dns = since(domainLookupEnd) ?? metrics.dns
        // URLSession's connect end includes the TLS handshake; the TCP connection was open when TLS started.
        metrics.connect = since(secureConnectionStart ?? connectEnd) ?? metrics.connect
        metrics.tls = since(secureConnectionEnd) ?? metrics.tls
        metrics.firstByte = since(responseStart) ?? metrics.firstByte
        metrics.httpVersion = Self.httpVersion(protocolName) ?? metrics.httpVersion
        metrics.connectionReused = isReusedConnection
        metrics.remoteAddress = remoteAddress ?? metrics.remoteAddress
        metrics.remotePort = remotePort ?? metrics.remotePort
        metrics.localPort = localPort ?? metrics.localPort
    }

    /// A port as Apple's URLSession types it.
    static func port(_ value: Int?) -> Int? { value }

    /// A port as FoundationNetworking types it (text).
    static func port(_ value: String?) -> Int? { value.flatMap { Int($0) } }

    /// `1.1`, `2` or `3` for an ALPN protocol name, as ``TransferMetrics/httpVersion`` spells them.
    static func httpVersion(_ protocolName: String?) -> String? {
        switch protocolName?.lowercased() {
        case "http/1.0": return "1.0"
        case "http/1.1": return "1.1"
        case "h2", "h2c": return "2"
        case "h3": return "3"
        default: return nil
        }
    }
}
