import Testing

@testable import MetMirror

@Suite("Mirror progress")
struct MirrorProgressTests {
    @Test("rate and time left come from this run's objects and the run's clock")
    func rate() {
        let counts = MirrorCounts(pending: 600, fetched: 380, skipped: 20)
        let progress = MirrorProgress(counts: counts, doneThisRun: 200, elapsed: .milliseconds(2_500))
        #expect(progress.objectsPerSecond == 80)
        #expect(progress.estimatedRemaining == .seconds(7.5))
        let start = MirrorProgress(counts: counts, doneThisRun: 0, elapsed: .zero)
        #expect(start.objectsPerSecond == 0 && start.estimatedRemaining == nil)
    }
}
