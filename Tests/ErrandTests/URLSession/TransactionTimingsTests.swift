import Foundation
import Testing
@testable import Errand

/// Apple's URLSession transaction timings as ``TransferMetrics``: the mapping is plain arithmetic, tested here because
/// FoundationNetworking never delivers timings to run it on a wire.
@Suite("URLSession: transaction timings")
struct TransactionTimingsTests {
    private let start = Date(timeIntervalSinceReferenceDate: 1_000)

    private func at(_ milliseconds: Double) -> Date { start.addingTimeInterval(milliseconds / 1000) }

    @Test(
        "a new TLS connection: DNS, TCP connect before TLS, handshake end and first byte, counted from the fetch start")
    func newConnection() {
        let timings = TransactionTimings(
            fetchStart: start, domainLookupEnd: at(5), connectEnd: at(40), secureConnectionStart: at(12),
            secureConnectionEnd: at(40), responseStart: at(55), protocolName: "h2", isReusedConnection: false)
        var metrics = TransferMetrics(firstByte: .milliseconds(60), total: .milliseconds(70))
        timings.apply(to: &metrics)
        #expect(metrics.dns == .milliseconds(5))
        #expect(metrics.connect == .milliseconds(12))
        #expect(metrics.tls == .milliseconds(40))
        #expect(metrics.firstByte == .milliseconds(55))
        #expect(metrics.httpVersion == "2")
        #expect(metrics.connectionReused == false)
        #expect(metrics.total == .milliseconds(70))
    }

    @Test("a reused connection keeps what it did not measure, and plain http's connect is the connect end")
    func reusedConnection() {
        let timings = TransactionTimings(
            fetchStart: start, responseStart: at(3), protocolName: "http/1.1", isReusedConnection: true)
        var metrics = TransferMetrics(firstByte: .milliseconds(9))
        timings.apply(to: &metrics)
        #expect(metrics.dns == nil && metrics.connect == nil && metrics.tls == nil)
        #expect(metrics.firstByte == .milliseconds(3))
        #expect(metrics.httpVersion == "1.1")
        #expect(metrics.connectionReused == true)

        var plain = TransferMetrics()
        TransactionTimings(fetchStart: start, connectEnd: at(8)).apply(to: &plain)
        #expect(plain.connect == .milliseconds(8))
    }

    @Test("no fetch start: nothing changes")
    func noFetchStart() {
        var metrics = TransferMetrics(firstByte: .milliseconds(9), httpVersion: "1.1")
        TransactionTimings(domainLookupEnd: at(5), protocolName: "h3").apply(to: &metrics)
        #expect(metrics == TransferMetrics(firstByte: .milliseconds(9), httpVersion: "1.1"))
    }

    @Test(
        "ALPN names become HTTP versions",
        arguments: [
            ("http/1.0", "1.0"), ("http/1.1", "1.1"), ("h2", "2"), ("H2", "2"), ("h3", "3"), ("spdy/3", nil),
            (nil, nil),
        ] as [(String?, String?)])
    func httpVersion(name: String?, version: String?) {
        #expect(TransactionTimings.httpVersion(name) == version)
    }

    @Test("URLSession's idle timeout: whole seconds on Linux, rounded up, never zero")
    func idleTimeout() {
        #if canImport(FoundationNetworking)
        #expect(URLSessionTransport.idleTimeoutInterval(0.5) == 1)
        #expect(URLSessionTransport.idleTimeoutInterval(1.2) == 2)
        #expect(URLSessionTransport.idleTimeoutInterval(30) == 30)
        #else
        #expect(URLSessionTransport.idleTimeoutInterval(0.5) == 0.5)
        #endif
    }
}
