import CommandLine
import Foundation
import MetMirror

/// Shows a mirror run's progress: a line on stderr redrawn after each batch when stderr is a terminal (counts,
/// rate, time left), or one JSON object per event on stdout with `--json`, for scripts.
struct MirrorProgressLine: Sendable {
    let console: Console
    let json: Bool

    func show(_ event: MirrorEvent) {
        if json { return console.print(Self.json(event).rendered(pretty: false)) }
        guard console.terminal.stderrIsTerminal else { return }
        switch event {
        case .started(let start) where start.isResuming:
            console.diagnostic(
                ToolText.sentence(
                    "mirror.resuming",
                    ["fetched": String(start.counts.fetched), "pending": String(start.counts.pending)]))
        case .started:
            break
        case .listed(let listing):
            console.diagnostic(
                ToolText.sentence(
                    "mirror.listed", ["listed": String(listing.listed), "pending": String(listing.pending)]))
        case .stored(let progress):
            console.rawError("\r\u{1B}[2K" + Self.line(progress, width: console.terminal.width))
        }
    }

    func finish() {
        guard !json, console.terminal.stderrIsTerminal else { return }
        console.rawError("\r\u{1B}[2K")
    }

    /// `Mirroring [#####-----] 1200/2000  73.1/s  0:11 left  12 skipped  0 failed`.
    static func line(_ progress: MirrorProgress, width: Int) -> String {
        let counts = progress.counts
        let done = counts.listed - counts.pending
        let left =
            progress.estimatedRemaining.map { " " + ToolText.sentence("mirror.progressLeft", ["time": clock($0)]) }
            ?? ""
        let tail =
            "  \(done)/\(counts.listed)  " + String(format: "%.1f/s", progress.objectsPerSecond) + left
            + "  "
            + ToolText.sentence(
                "mirror.progressCounts", ["skipped": String(counts.skipped), "failed": String(counts.failed)])
        let barWidth = max(10, min(30, width - tail.count - 14))
        let filled = counts.listed > 0 ? barWidth * done / counts.listed : 0
        return ToolText.sentence("mirror.progress") + " [" + String(repeating: "#", count: filled)
            + String(repeating: "-", count: barWidth - filled)
            + "]" + tail
    }

    static func clock(_ duration: Duration) -> String {
        let seconds = Int(duration.components.seconds)
        return seconds >= 3600
            ? String(format: "%d:%02d:%02d", seconds / 3600, seconds / 60 % 60, seconds % 60)
            : String(format: "%d:%02d", seconds / 60, seconds % 60)
    }

    static func json(_ event: MirrorEvent) -> JSONValue {
        switch event {
        case .started(let start):
            return .object([
                ("event", "started"), ("resuming", .bool(start.isResuming)),
                ("fetched", .integer(start.counts.fetched)), ("pending", .integer(start.counts.pending)),
            ])
        case .listed(let listing):
            var members: [(key: String, value: JSONValue)] = [
                ("event", "listed"), ("kind", .string(listing.kind.rawValue)), ("listed", .integer(listing.listed)),
                ("pending", .integer(listing.pending)),
            ]
            if let changes = listing.changes {
                members.append(
                    (
                        "changes",
                        [
                            "added": .integer(changes.added), "changed": .integer(changes.changed),
                            "removed": .integer(changes.removed),
                        ]
                    ))
            }
            return .object(members)
        case .stored(let progress):
            let counts = progress.counts
            return .object([
                ("event", "progress"), ("fetched", .integer(counts.fetched)), ("skipped", .integer(counts.skipped)),
                ("failed", .integer(counts.failed)), ("pending", .integer(counts.pending)),
                ("listed", .integer(counts.listed)), ("objectsPerSecond", .number(progress.objectsPerSecond)),
                ("secondsLeft", JSONValue(progress.estimatedRemaining.map(MirrorCommand.seconds))),
            ])
        }
    }
}
