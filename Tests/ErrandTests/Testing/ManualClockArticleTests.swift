import Errand
import ErrandTesting
import Foundation
import Testing

// The example of the ErrandTesting article "Testing code that waits", compiled and run as a test.
@Suite("The manual clock article")
struct ManualClockArticleTests {
    @Test func aRetryWaitsForRetryAfterOnTheClock() async throws {
        let clock = ManualClock()
        let stub = StubTransport()
        stub.respond(to: "quote", status: 503, headers: ["Retry-After": "2"], body: Data())
        let client = APIClient(
            configuration: ClientConfiguration(
                baseURL: URL(string: "https://example.com")!, transport: stub,
                middleware: [RetryMiddleware(policy: RetryPolicy(maxAttempts: 2))], clock: clock))

        let call = Task { try await client.send(Request<Data>(path: "quote")) }
        await clock.sleepers(1)  // the first answer came: the retry waits
        #expect(stub.requests.count == 1)
        clock.advance(by: .milliseconds(1_999))
        #expect(stub.requests.count == 1)  // not a moment early
        clock.advance(by: .milliseconds(1))
        await #expect(throws: ErrandError.self) { try await call.value }  // the second 503 is the last
        #expect(stub.requests.count == 2)
    }
}
