import Errand
import Synchronization

/// How each request of the soak ended, counted so that a request lost or answered twice shows.
final class Tally: Sendable {
    /// How one request ended.
    enum Outcome: Sendable {
        case succeeded
        case failed(String)
    }

    private struct State {
        var endings: [Int]
        var byKind: [String: Int] = [:]
        var byRoute: [String: (sent: Int, succeeded: Int)] = [:]
        var succeeded = 0
        var unexpected: [String: Int] = [:]
    }

    private let state: Mutex<State>

    init(requests: Int) {
        state = Mutex(State(endings: Array(repeating: 0, count: requests)))
    }

    /// Records the end of request `index`.
    func record(index: Int, route: SoakRoute, outcome: Outcome) {
        state.withLock { state in
            state.endings[index] += 1
            let name = "\(route)"
            var routeCount = state.byRoute[name] ?? (0, 0)
            routeCount.sent += 1
            switch outcome {
            case .succeeded:
                state.succeeded += 1
                routeCount.succeeded += 1
                if !route.shouldSucceed { state.unexpected["\(name) succeeded", default: 0] += 1 }
            case .failed(let kind):
                state.byKind[kind, default: 0] += 1
                if route.shouldSucceed { state.unexpected["\(name) failed: \(kind)", default: 0] += 1 }
            }
            state.byRoute[name] = routeCount
        }
    }

    /// Requests that never ended, requests that ended more than once, successes, failures by kind, per route, and
    /// outcomes a route should not have had.
    var summary:
        (
            lost: Int, duplicated: Int, succeeded: Int, failures: [String: Int],
            routes: [String: (sent: Int, succeeded: Int)], unexpected: [String: Int]
        )
    {
        state.withLock { state in
            (
                state.endings.filter { $0 == 0 }.count, state.endings.filter { $0 > 1 }.count, state.succeeded,
                state.byKind, state.byRoute, state.unexpected
            )
        }
    }
}

extension SoakRoute {
    /// Whether the client must deliver a value for this route (retries recover, slow is not broken).
    var shouldSucceed: Bool {
        switch self {
        case .ok, .shared, .failOnce, .rateLimitedOnce, .trickle, .wrongContentType: true
        default: false
        }
    }
}

extension ErrandError {
    /// A short name for the kind of failure, for the soak's table.
    var soakKind: String {
        switch self {
        case .transport(let failure): "transport.\(failure.kind.rawValue)"
        case .unacceptableStatus(let failure): "status \(failure.status)"
        case .blocked: "blocked"
        case .decoding: "decoding"
        case .bodyTooLarge: "bodyTooLarge"
        case .invalidURL: "invalidURL"
        case .insecureURL: "insecureURL"
        case .invalidRequest: "invalidRequest"
        case .notCached: "notCached"
        case .cancelled: "cancelled"
        case .app: "app"
        }
    }
}
