import Errand
import ErrandTesting
import Foundation
import MealDB
import Synchronization
import Testing

/// `MealDBClient()` ships the same resilience defaults as `MetClient()`: a 503 is retried by `RetryPolicy.default`.
@Suite("MealDB client's default retries")
struct DefaultResilienceTests {
    /// A stub that answers 503 `failures` times, then a meal.
    static func flaky(failures: Int) -> StubTransport {
        let count = Mutex(0)
        let stub = StubTransport()
        stub.register(
            path: "lookup.php",
            reply: .dynamic { request in
                let seen = count.withLock { count in
                    defer { count += 1 }
                    return count
                }
                guard seen >= failures else { return TransportResponse(status: 503, url: request.url) }
                let json = #"{"meals":[{"idMeal":"52772","strMeal":"Teriyaki Chicken Casserole"}]}"#
                return TransportResponse(status: 200, body: Data(json.utf8), url: request.url)
            })
        return stub
    }

    @Test("a 503 and then an answer: the default client retries and returns the meal")
    func retriesByDefault() async throws {
        let clock = ManualClock()
        let stub = Self.flaky(failures: 2)
        let mealDB = MealDBClient(transport: stub, clock: clock)

        let meal = try await clock.run { try await mealDB.meal(id: "52772") }

        #expect(meal?.name == "Teriyaki Chicken Casserole")
        #expect(stub.requests.map(\.options.attempt) == [1, 2, 3])
    }

    @Test("retry: nil sends once and reports the 503")
    func noRetriesWhenAskedFor() async throws {
        let stub = Self.flaky(failures: 1)
        let mealDB = MealDBClient(transport: stub, retry: nil)

        let error = await #expect(throws: ErrandError.self) { try await mealDB.meal(id: "52772") }

        #expect(error?.status == 503)
        #expect(stub.requests.count == 1)
    }

    @Test("a configuration of the caller's keeps its own middleware: no retries added")
    func configurationIsKeptAsItIs() async throws {
        let stub = Self.flaky(failures: 1)
        let mealDB = MealDBClient(
            configuration: ClientConfiguration(baseURL: MealDBClient.defaultBaseURL, transport: stub))

        await #expect(throws: ErrandError.self) { try await mealDB.meal(id: "52772") }

        #expect(stub.requests.count == 1)
    }
}
