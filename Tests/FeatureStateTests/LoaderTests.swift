import Errand
import FeatureState
import Synchronization
import Testing
import TestSupport

/// A feature's wording for the tests: the kind's name as its sentence.
enum TestWording: FailureWording {
    static func sentence(for kind: FailureKind) -> String { "sentence for \(kind.rawValue)" }
}

typealias TestFailure = FeatureFailure<TestWording>

/// Answers a loader's fetches from a script, one outcome per call, each held at a gate when asked.
final class Script: Sendable {
    private let outcomes: Mutex<[Result<Int, ErrandError>]>
    let gate: Gate?

    init(_ outcomes: [Result<Int, ErrandError>], gate: Gate? = nil) {
        self.outcomes = Mutex(outcomes)
        self.gate = gate
    }

    func next() async throws -> Int {
        await gate?.pass()
        return try outcomes.withLock { $0.removeFirst() }.get()
    }
}

@MainActor
@Suite("Loader: each state transition")
struct LoaderTests {
    let failure = ErrandError.unacceptableStatus(StatusFailure(status: 500, headers: [:], body: .init(), url: nil))

    @Test("idle → loading → loaded")
    func loads() async {
        let gate = Gate()
        let script = Script([.success(1)], gate: gate)
        let loader = FeatureState.Loader<Int, TestFailure> { try await script.next() }
        #expect(loader.state.isIdle)
        let load = Task { await loader.load() }
        await gate.waitForArrival()
        #expect(loader.state.isLoading)
        gate.open()
        await load.value
        #expect(loader.state == .loaded(1))
        #expect(loader.lastFailure == nil)
    }

    @Test("loading → failed, with the wording's sentence and the classified failure kept")
    func fails() async {
        let loader = FeatureState.Loader<Int, TestFailure> { [failure] in throw failure }
        await loader.load()
        #expect(loader.state == .failed("sentence for serverError"))
        #expect(loader.lastFailure?.kind == .serverError)
        #expect(loader.lastFailure?.classified.reason == failure.userMessage)
    }

    @Test("failed → loading → loaded on retry; the failure is cleared")
    func retries() async {
        let script = Script([.failure(failure), .success(2)])
        let loader = FeatureState.Loader<Int, TestFailure> { try await script.next() }
        await loader.load()
        #expect(loader.state.errorMessage != nil)
        await loader.retry()
        #expect(loader.state == .loaded(2))
        #expect(loader.lastFailure == nil)
    }

    @Test("a refresh keeps the loaded value; its failure is a message beside it")
    func refreshKeepsValue() async {
        let gate = Gate()
        let script = Script([.success(1), .failure(failure), .success(3)])
        let loader = FeatureState.Loader<Int, TestFailure> { try await script.next() }
        gate.open()
        await loader.load()
        await loader.refresh()
        #expect(loader.state == .loaded(1))
        #expect(loader.refreshFailureMessage == "sentence for serverError")
        await loader.refresh()
        #expect(loader.state == .loaded(3))
        #expect(loader.refreshFailureMessage == nil)
    }

    @Test("loadIfIdle loads once")
    func loadIfIdle() async {
        let script = Script([.success(1), .success(2)])
        let loader = FeatureState.Loader<Int, TestFailure> { try await script.next() }
        await loader.loadIfIdle()
        await loader.loadIfIdle()
        #expect(loader.state == .loaded(1))
    }

    @Test("a cancelled load puts back the state it found")
    func cancellation() async {
        let loader = FeatureState.Loader<Int, TestFailure> { throw ErrandError.cancelled }
        await loader.load()
        #expect(loader.state.isIdle)
        #expect(loader.lastFailure == nil)
    }

    @Test("a load that a newer one overtook changes nothing")
    func staleResultIsDropped() async {
        let gate = Gate()
        let calls = Mutex(0)
        let loader = FeatureState.Loader<Int, TestFailure> {
            let call = calls.withLock { count in
                count += 1
                return count
            }
            if call == 1 { await gate.pass() }
            return call
        }
        let first = Task { await loader.load() }
        await gate.waitForArrival()
        await loader.load()
        #expect(loader.state == .loaded(2))
        gate.open()
        await first.value
        #expect(loader.state == .loaded(2), "the older load's value never reaches the state")
    }

    @Test("a fixed state stays as it is")
    func fixed() async {
        let loader = FeatureState.Loader<Int, TestFailure>(state: .loaded(7))
        await loader.load()
        #expect(loader.state == .loaded(7))
    }

    @Test("a feature failure: a kind's sentence, its own classification, cancellation recognised")
    func featureFailure() {
        let failure = TestFailure(kind: .notFound, technicalDescription: "gone")
        #expect(failure.message == "sentence for notFound")
        #expect(TestFailure(failure) == failure)
        #expect(TestFailure.isCancellation(CancellationError()))
        #expect(TestFailure.isCancellation(ErrandError.cancelled))
        #expect(!TestFailure.isCancellation(ErrandError.invalidRequest("x")))
    }
}
