import FeatureState
import Foundation
import Errand
import MealDB
import Observation

/// Search as you type: meals whose name contains the query, debounced, the latest query winning.
///
/// Setting ``query`` schedules a search after the debounce; a newer query cancels the older search, whose result
/// never reaches ``state``. An empty query shows `idle`.
@MainActor @Observable
public final class MealSearchModel {
    /// The text typed; each change schedules a search.
    public var query: String = "" {
        didSet {
            guard query != oldValue else { return }
            scheduled?.cancel()
            let text = query
            scheduled = Task { [weak self] in
                // Cancelled by a newer keystroke before it began: never start (nor supersede the newer search).
                guard !Task.isCancelled else { return }
                await self?.search(text)
            }
        }
    }
    /// The results of the latest search.
    public private(set) var state: LoadState<[Meal]>
    /// The query whose results (or failure) ``state`` shows.
    public private(set) var searchedText: String?
    /// The last failure, with its technical description for logs.
    public private(set) var lastFailure: RecipeFailure?

    @ObservationIgnored private let searchMeals: (@Sendable (String) async throws -> [Meal])?
    @ObservationIgnored private let latest: LatestWins<[Meal]>
    @ObservationIgnored private var scheduled: Task<Void, Never>?
    @ObservationIgnored private var generation = 0

    /// Searches TheMealDB (or a client on a stub transport, for tests).
    /// - Parameters:
    ///   - client: the SDK client the searches go through.
    ///   - debounce: how long typing must pause before a search is sent; `nil` sends at once. It runs on the
    ///     clock of the client's configuration (``/Errand/ClientConfiguration/clock``).
    public init(client: MealDBClient, debounce: Duration? = .milliseconds(300)) {
        self.state = .idle
        self.searchMeals = { text in try await client.search(name: text) }
        self.latest = LatestWins(debounce: debounce, clock: client.apiClient.configuration.clock)
    }

    /// Fixed in a state, for previews: nothing is fetched.
    public init(query: String = "", state: LoadState<[Meal]>) {
        self.state = state
        self.searchMeals = nil
        self.latest = LatestWins()
        self.query = query
        self.searchedText = query
    }

    /// Searches for `text` now (after the debounce) and returns when this search has settled or been superseded.
    public func search(_ text: String) async {
        // A search superseded before it even started (a keystroke's task that runs after the next one's) must not
        // take over: it would cancel the newer search and leave the state idle.
        guard let searchMeals, !Task.isCancelled else { return }
        generation += 1
        let current = generation
        let trimmed = text.trimmingCharacters(in: .whitespacesAndNewlines)
        guard !trimmed.isEmpty else {
            latest.cancel()
            state = .idle
            searchedText = nil
            return
        }
        state = .loading
        let outcome: Result<[Meal], ErrandError>
        do {
            outcome = .success(try await latest.run { try await searchMeals(trimmed) })
        } catch {
            outcome = .failure(error)
        }
        // A newer search owns the state now.
        guard current == generation else { return }
        switch outcome {
        case .success(let meals):
            state = .loaded(meals)
            searchedText = trimmed
            lastFailure = nil
        case .failure(.cancelled):
            state = .idle
        case .failure(let error):
            let failure = RecipeFailure(error)
            state = .failed(failure.message)
            searchedText = trimmed
            lastFailure = failure
        }
    }

    /// Runs the current query again (after a failure, say).
    public func retry() async {
        await search(query)
    }

    /// Waits for the search scheduled by the last change of ``query`` (for tests and command-line use).
    public func settle() async {
        await scheduled?.value
    }
}
