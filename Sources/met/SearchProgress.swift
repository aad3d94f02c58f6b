import CommandLine
import MuseumFeature
import Observation

/// Draws a search store's progress as a bar on stderr while it fetches, following the store as an app's screen
/// would: by observing it.
@MainActor
final class SearchProgress {
    private let store: MuseumSearchStore
    private let console: Console
    private var bar: ProgressBar?
    private var isFinished = false

    init(store: MuseumSearchStore, console: Console) {
        self.store = store
        self.console = console
    }

    /// Draws the store's state now and again after each change, until ``finish()``.
    func follow() {
        guard !isFinished else { return }
        withObservationTracking {
            draw()
        } onChange: { [weak self] in
            // Called before the change is made: draw once it is.
            Task { @MainActor in self?.follow() }
        }
    }

    /// Clears the bar; nothing is drawn afterwards.
    func finish() {
        isFinished = true
        bar?.finish()
    }

    private func draw() {
        let phase = store.state
        let progress = store.progress
        guard !isFinished, phase == .fetching || phase == .finished else { return }
        if bar == nil { bar = ProgressBar(console: console, label: "Fetching objects", total: progress.total) }
        bar?.update(completed: progress.completed, skipped: progress.failed)
    }
}
