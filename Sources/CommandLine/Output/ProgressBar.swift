import Synchronization

/// A one-line progress bar on stderr (`objects  [######------]  12/20  1 skipped`), drawn only when stderr is a
/// terminal; otherwise every method does nothing, so callers need not check.
///
/// Safe to advance from many tasks at once. Call ``finish()`` to clear the line before printing anything else.
public final class ProgressBar: Sendable {
    private struct State {
        var done = 0
        var skipped = 0
        var total: Int
        var lastDrawn = -1
        var finished = false
    }

    private let console: Console
    private let label: String
    private let isActive: Bool
    private let state: Mutex<State>

    /// Creates a bar for `total` steps; it is drawn at once when active.
    public init(console: Console, label: String, total: Int) {
        self.console = console
        self.label = label
        self.isActive = console.terminal.stderrIsTerminal && total > 0
        self.state = Mutex(State(total: total))
        draw(force: true)
    }

    /// Whether the bar is drawn at all.
    public var isVisible: Bool { isActive }

    /// Marks one step done; `skipped` counts it as skipped as well.
    public func advance(skipped: Bool = false) {
        state.withLock { state in
            state.done += 1
            if skipped { state.skipped += 1 }
        }
        draw(force: false)
    }

    /// Shows how far the work has come: `completed` steps done, of which `skipped` were skipped.
    public func update(completed: Int, skipped: Int) {
        state.withLock { state in
            state.done = completed
            state.skipped = skipped
        }
        draw(force: false)
    }

    /// Clears the bar's line.
    public func finish() {
        guard isActive else { return }
        let clear = state.withLock { state -> Bool in
            defer { state.finished = true }
            return !state.finished
        }
        if clear { console.rawError("\r\u{1B}[2K") }
    }

    /// The bar's text for a state (without control characters), for tests.
    static func line(label: String, done: Int, total: Int, skipped: Int, width: Int) -> String {
        let counter = "\(done)/\(total)" + (skipped > 0 ? "  \(skipped) skipped" : "")
        let barWidth = max(10, min(40, width - label.count - counter.count - 8))
        let filled = total > 0 ? min(barWidth, barWidth * done / total) : 0
        let bar = String(repeating: "#", count: filled) + String(repeating: "-", count: barWidth - filled)
        return "\(label)  [\(bar)]  \(counter)"
    }

    private func draw(force: Bool) {
        guard isActive else { return }
        let text: String? = state.withLock { state in
            guard !state.finished, force || state.done != state.lastDrawn else { return nil }
            state.lastDrawn = state.done
            return Self.line(
                label: label, done: state.done, total: state.total, skipped: state.skipped,
                width: console.terminal.width)
        }
        if let text { console.rawError("\r\u{1B}[2K" + text) }
    }
}
