import Errand
import ErrandTesting
import Foundation
import MealDB
import Synchronization

/// Holds a stubbed request until the test lets it go, so a test can look at the state while it is in flight.
final class Gate: Sendable {
    private let arrivals: AsyncStream<Void>
    private let arrived: AsyncStream<Void>.Continuation
    private let releases = Mutex<[CheckedContinuation<Void, Never>]>([])
    private let opened = Mutex(false)

    init() {
        (arrivals, arrived) = AsyncStream.makeStream(of: Void.self, bufferingPolicy: .unbounded)
    }

    /// Called by the stub: reports the arrival, then waits until ``open()``.
    func pass() async {
        arrived.yield()
        await withCheckedContinuation { continuation in
            let isOpen = opened.withLock { open in
                if !open { releases.withLock { $0.append(continuation) } }
                return open
            }
            if isOpen { continuation.resume() }
        }
    }

    /// Waits until a request reached the gate.
    func waitForArrival() async {
        var iterator = arrivals.makeAsyncIterator()
        _ = await iterator.next()
    }

    /// Lets every held and future request through.
    func open() {
        opened.withLock { $0 = true }
        for continuation in releases.withLock({ list in defer { list.removeAll() }; return list }) {
            continuation.resume()
        }
    }
}

/// A MealDB client on a stub transport.
func stubClient(_ stub: StubTransport, apiKey: String = "1") -> MealDBClient {
    MealDBClient(apiKey: apiKey, client: APIClient(configuration: ClientConfiguration(
        baseURL: URL(string: "https://meals.example")!, transport: stub)))
}

/// A JSON body with one meal per id and name.
func mealsJSON(_ meals: [(id: String, name: String)]) -> String {
    let items = meals.map { meal in
        #"{"idMeal":"\#(meal.id)","strMeal":"\#(meal.name)","strCategory":"Pasta","strArea":"Italian","strInstructions":"Cook.","strMealThumb":"https://meals.example/a.png","strTags":"Pasta,","strIngredient1":"Penne","strMeasure1":"1 pound"}"#
    }
    return #"{"meals":[\#(items.joined(separator: ","))]}"#
}

let summariesJSON = #"{"meals":[{"idMeal":"52772","strMeal":"Teriyaki Chicken","strMealThumb":"https://meals.example/t.png"}]}"#

/// The query value of a recorded request.
func queryValue(_ request: TransportRequest, _ name: String) -> String? {
    URLComponents(url: request.url, resolvingAgainstBaseURL: false)?.queryItems?.first { $0.name == name }?.value
}
