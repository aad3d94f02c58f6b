@testable import Errand
import Foundation
import Testing

/// The policy's arithmetic and header parsing: no wire involved.
@Suite("Retry policy")
struct RetryPolicyTests {
    @Test func exponentialDelaysDoubleUpToTheCap() {
        let policy = RetryPolicy(baseDelay: .milliseconds(100), maxDelay: .milliseconds(500), jitter: .none)
        let delays = (1...6).map { policy.backoff(beforeRetry: $0) }
        #expect(
            delays == [
                .milliseconds(100), .milliseconds(200), .milliseconds(400), .milliseconds(500),
                .milliseconds(500), .milliseconds(500),
            ])
    }

    @Test func fullJitterPicksWithinZeroAndTheExponentialDelay() {
        let policy = RetryPolicy(baseDelay: .seconds(1), maxDelay: .seconds(30), jitter: .full)
        #expect(policy.backoff(beforeRetry: 3, unitRandom: 0) == .zero)
        #expect(policy.backoff(beforeRetry: 3, unitRandom: 1) == .seconds(4))
        #expect(policy.backoff(beforeRetry: 3, unitRandom: 0.5) == .seconds(2))
        for _ in 0..<100 { #expect(policy.backoff(beforeRetry: 2) <= .seconds(2)) }
    }

    @Test func hugeRetryCountsDoNotOverflow() {
        let policy = RetryPolicy(baseDelay: .seconds(1), maxDelay: .seconds(30), jitter: .none)
        #expect(policy.backoff(beforeRetry: 10_000) == .seconds(30))
        #expect(policy.backoff(beforeRetry: -3) == .seconds(1))
    }

    @Test func onlyIdempotentMethodsAreRetriedByDefault() {
        let policy = RetryPolicy.default
        let url = URL(string: "https://example.com")!
        for method in [HTTPMethod.get, .head, .put, .delete, .options] {
            #expect(policy.allowsRetry(of: TransportRequest(method: method, url: url)))
        }
        for method in [HTTPMethod.post, .patch] {
            #expect(!policy.allowsRetry(of: TransportRequest(method: method, url: url)))
        }
        var declared = TransportRequest(method: .post, url: url)
        declared.options.isIdempotent = true
        #expect(policy.allowsRetry(of: declared))
        var refused = TransportRequest(method: .get, url: url)
        refused.options.isIdempotent = false
        #expect(!policy.allowsRetry(of: refused))
        #expect(!RetryPolicy.never.allowsRetry(of: TransportRequest(url: url)))
    }

    @Test func blockPagesAreNeverRetryable() {
        var policy = RetryPolicy.default
        policy.retryableStatuses.insert(403)
        let url = URL(string: "https://example.com")!
        let page = TransportResponse(
            status: 403, headers: ["Content-Type": "text/html"], body: Data("<html></html>".utf8), url: url)
        let json = TransportResponse(
            status: 403, headers: ["Content-Type": "application/json"], body: Data("{}".utf8), url: url)
        #expect(!policy.isRetryable(page))
        #expect(policy.isRetryable(json))
    }

    @Test(
        "Retry-After values",
        arguments: [
            ("0", 0.0), ("7", 7.0), (" 120 ", 120.0),
            ("Sun, 06 Nov 1994 08:49:47 GMT", 10.0),
            ("Sunday, 06-Nov-94 08:49:47 GMT", 10.0),
            ("Sun Nov  6 08:49:47 1994", 10.0),
            ("Sun, 06 Nov 1994 08:49:27 GMT", 0.0),
        ])
    func parsesRetryAfter(value: String, seconds: Double) throws {
        // 1994-11-06 08:49:37 GMT
        let now = Date(timeIntervalSince1970: 784_111_777)
        let delay = try #require(RetryAfter.delay(parsing: value, now: now))
        #expect(delay == .milliseconds(Int64(seconds * 1000)))
    }

    @Test(
        "unreadable Retry-After values are ignored",
        arguments: [
            "", "-5", "soon", "1.5", "Sun, 32 Nov 1994 08:49:37 GMT",
            "Sun, 06 Foo 1994 08:49:37 GMT", "Sun, 06 Nov 1994 25:00:00 GMT",
        ])
    func ignoresUnreadableRetryAfter(value: String) {
        #expect(RetryAfter.delay(parsing: value) == nil)
    }

    @Test func leapDaysAndCenturiesParse() throws {
        let date = try #require(HTTPDate.parse("Thu, 29 Feb 2024 23:59:59 GMT"))
        #expect(date.timeIntervalSince1970 == 1_709_251_199)
        let y2k = try #require(HTTPDate.parse("Sat, 01 Jan 2000 00:00:00 GMT"))
        #expect(y2k.timeIntervalSince1970 == 946_684_800)
    }
}
