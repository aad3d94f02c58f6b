#if canImport(CCurl)
import Errand
import Foundation
import TestSupport
import Testing

/// Heads a hostile server sends to stall or exhaust the client: read in linear time, refused past the limit.
@Suite("Curl transport: hostile response heads")
struct CurlHostileHeadTests {
    // Measures real time: quadratic reading took seconds; the bound is generous.
    @Test("a head of 40,000 short fields is read whole, in linear time (real time)")
    func manyFieldsReadLinearlyRealTime() async throws {
        // About 200 KB of head, under the limit. Read field by field through libcurl's header store this took
        // seconds (it is quadratic); read as bytes it takes milliseconds.
        // Built by repetition: 40,000 interpolated strings take seconds in a debug build, on the pool's threads.
        let fields = String(repeating: (0..<10).map { "a:\($0)\r\n" }.joined(), count: 4_000)
        let server = try HostileServer(response: Array("HTTP/1.1 200 OK\r\nContent-Length: 2\r\n\(fields)\r\nok".utf8))
        let request = TransportRequest(url: server.url(), timeouts: Timeouts(total: .seconds(20)))
        let clock = ContinuousClock()
        let started = clock.now
        let response = try await CurlTest.transport().send(request)
        #expect(response.status == 200)
        #expect(response.body == Data("ok".utf8))
        #expect(response.headers.fields.count == 40_001)
        #expect(response.headers.values(for: "a").prefix(3) == ["0", "1", "2"])
        #expect(clock.now - started < .seconds(5))
    }

    @Test("a head of 70,000 fields is larger than the limit and fails as a bad response within the timeout")
    func oversizedHeadFails() async throws {
        let fields = String(repeating: "X-Field: 1\r\n", count: 70_000)
        let server = try HostileServer(response: Array("HTTP/1.1 200 OK\r\nContent-Length: 0\r\n\(fields)\r\n".utf8))
        let request = TransportRequest(url: server.url(), timeouts: Timeouts(total: .seconds(10)))
        let error = await #expect(throws: ErrandError.self) { try await CurlTest.transport().send(request) }
        // A bad response, not a timeout: the size failed it before the timer could.
        #expect(error.flatMap(CurlTest.failureKind) == .badResponse)
    }

    @Test("the limit counts interim heads too")
    func interimHeadsCount() async throws {
        let interim = Array(
            repeating: "HTTP/1.1 100 Continue\r\nX-Pad: \(String(repeating: "p", count: 1000))\r\n", count: 300)
        let server = try HostileServer(
            response: Array(
                (interim.joined(separator: "\r\n") + "\r\nHTTP/1.1 200 OK\r\nContent-Length: 0\r\n\r\n").utf8))
        let request = TransportRequest(url: server.url(), timeouts: Timeouts(total: .seconds(5)))
        let error = await #expect(throws: ErrandError.self) { try await CurlTest.transport().send(request) }
        #expect(error.flatMap(CurlTest.failureKind) == .badResponse)
    }

    @Test("a stream's head obeys the same limit")
    func streamedHeadLimit() async throws {
        let fields = String(repeating: "X-Field: 1\r\n", count: 70_000)
        let server = try HostileServer(response: Array("HTTP/1.1 200 OK\r\nContent-Length: 0\r\n\(fields)\r\n".utf8))
        let request = TransportRequest(url: server.url(), timeouts: Timeouts(total: .seconds(2)))
        let error = await #expect(throws: ErrandError.self) { try await CurlTest.transport().stream(request) }
        #expect(error.flatMap(CurlTest.failureKind) == .badResponse)
    }
}
#endif
