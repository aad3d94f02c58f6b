import Errand
import ErrandTesting
import Foundation
import Testing

/// Numbers a caller passes are checked or clamped as documented: none traps, none waits beyond reason.
@Suite("Security: numeric parameters are checked or clamped")
struct NumericRangeTests {
    @Test(
        "a rate above a billion per second counts as a billion: callers pass at once, nothing overflows",
        arguments: [1e20, Double.greatestFiniteMagnitude])
    func hugeRate(rate: Double) async throws {
        let limiter = RateLimiter(rate: rate, burst: 4)
        #expect(limiter.rate == RateLimiter.supportedRates.upperBound)
        for _ in 0..<10 { try await limiter.acquire() }
    }

    @Test(
        "a rate below one a day, zero, negative or NaN is refused with a sentence, never a trap or an endless wait",
        arguments: [1e-20, 1e-6, 0, -1, Double.nan, Double.infinity, -Double.infinity])
    func tinyRate(rate: Double) async {
        let limiter = RateLimiter(rate: rate)
        let error = await #expect(throws: ErrandError.self) { try await limiter.acquire() }
        guard case .invalidRequest(let reason)? = error else {
            Issue.record("expected invalidRequest, got \(String(describing: error))")
            return
        }
        #expect(reason.contains("a rate limiter's rate must be"))
    }

    @Test(
        "a strict window longer than a day, or of no length, is refused",
        arguments: [
            Duration.seconds(86_401), .seconds(1e12), .zero, .seconds(-1),
        ])
    func badWindow(window: Duration) async {
        let limiter = RateLimiter(limit: 5, per: window)
        await #expect(throws: ErrandError.self) { try await limiter.acquire() }
    }

    @Test("timeouts are kept within zero and a week")
    func clampedTimeouts() {
        let timeouts = Timeouts(connect: .seconds(-5), idle: .seconds(30), total: .seconds(Int64.max)).clamped
        #expect(timeouts.connect == .zero)
        #expect(timeouts.idle == .seconds(30))
        #expect(timeouts.total == Timeouts.longest)
        #expect(Timeouts().clamped == Timeouts())
    }

    @Test("a client with an absurd timeout sends a request whose timeouts a transport can keep")
    func clientClampsTimeouts() async throws {
        let stub = StubTransport()
        stub.respond(to: "x", json: "{}")
        var configuration = ClientConfiguration(baseURL: URL(string: "https://api.example.com")!, transport: stub)
        configuration.timeout = .seconds(Int64.max)
        configuration.connectTimeout = .seconds(-1)
        _ = try await APIClient(configuration: configuration).send(Request<Data>(path: "x"))
        let sent = try #require(stub.requests.first)
        #expect(sent.timeouts.total == Timeouts.longest)
        #expect(sent.timeouts.connect == .zero)
    }
}

@Suite("Errors: the size limit reads as documented")
struct SizeLimitMessageTests {
    @Test("50,000,000 bytes read as 50 MB, as the documentation says")
    func decimalUnits() {
        #expect(
            ErrandError.bodyTooLarge(limit: 50_000_000).userMessage
                == "The response was larger than the limit of 50 MB.")
        #expect(
            ErrandError.bodyTooLarge(limit: 1_000_000).userMessage == "The response was larger than the limit of 1 MB.")
    }
}
