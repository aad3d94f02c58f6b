#if canImport(CCurl)
import CCurl
import Foundation

extension CurlTransfer {
    /// The transfer's metrics from libcurl's counters, the whole transfer having taken `total`.
    ///
    /// On a reused connection there was no DNS lookup, connect or handshake, so those are `nil`.
    func makeMetrics(_ easy: CurlEasyHandle, total: Duration) -> TransferMetrics {
        let reused = easy.info(long: CURLINFO_NUM_CONNECTS).map { $0 == 0 }
        func time(_ info: CURLINFO) -> Duration? {
            guard let microseconds = easy.info(offset: info), microseconds > 0 else { return nil }
            return .microseconds(microseconds)
        }
        let fresh = reused != true
        let sent = easy.info(offset: CURLINFO_SIZE_UPLOAD_T).map { Int($0) } ?? 0
        return TransferMetrics(
            dns: fresh ? time(CURLINFO_NAMELOOKUP_TIME_T) : nil,
            connect: fresh ? time(CURLINFO_CONNECT_TIME_T) : nil,
            tls: fresh && isTLS ? time(CURLINFO_APPCONNECT_TIME_T) : nil,
            firstByte: time(CURLINFO_STARTTRANSFER_TIME_T),
            total: total,
            bytesSent: sent,
            bytesReceived: bytesReceived,
            httpVersion: easy.info(long: CURLINFO_HTTP_VERSION).flatMap(Self.httpVersionName),
            connectionReused: reused,
            redirectCount: 0,
            remoteAddress: easy.info(string: CURLINFO_PRIMARY_IP).flatMap { $0.isEmpty ? nil : $0 },
            remotePort: easy.info(long: CURLINFO_PRIMARY_PORT).flatMap { $0 > 0 ? $0 : nil },
            // libcurl 7.88 has no connection id (CURLINFO_CONN_ID came in 8.2): the local port tells connections apart.
            localPort: easy.info(long: CURLINFO_LOCAL_PORT).flatMap { $0 > 0 ? $0 : nil })
    }

    private static func httpVersionName(_ version: Int) -> String? {
        switch version {
        case Int(CURL_HTTP_VERSION_1_0): return "1.0"
        case Int(CURL_HTTP_VERSION_1_1): return "1.1"
        case Int(CURL_HTTP_VERSION_2_0): return "2"
        case Int(CURL_HTTP_VERSION_3): return "3"
        default: return nil
        }
    }
}
#endif
