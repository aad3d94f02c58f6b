import Foundation

/// Prints the soak's figures and judges them against the targets.
enum SoakReport {
    /// The most resident memory may grow after warm-up.
    static let memoryGrowthLimit = 10 * 1024 * 1024

    /// Prints every figure; returns whether every target was met.
    static func print(_ options: SoakOptions, _ run: SoakRun, descriptorsBefore: Int, descriptorsAfter: Int) -> Bool {
        let summary = run.tally.summary
        let failed = summary.failures.values.reduce(0, +)
        let seconds = Double(run.duration.components.seconds) + Double(run.duration.components.attoseconds) / 1e18
        let growth: Int? =
            if let start = run.residentAfterWarmUp, let end = run.residentAtEnd { end - start } else { nil }
        func megabytes(_ bytes: Int?) -> String {
            bytes.map { String(format: "%.1f MB", Double($0) / 1_048_576) } ?? "n/a"
        }
        func line(_ label: String, _ value: String) {
            Swift.print(label.padding(toLength: 30, withPad: " ", startingAt: 0) + value)
        }

        Swift.print(
            "errand-soak: \(options.requests) requests, \(options.concurrency) in flight, "
                + "\(Int(options.faultRate * 100))% to fault routes, seed \(options.seed)")
        line("requests sent", "\(options.requests)")
        line("succeeded", "\(summary.succeeded)")
        line("failed", "\(failed)")
        for (kind, count) in summary.failures.sorted(by: { $0.key < $1.key }) { line("  \(kind)", "\(count)") }
        line("lost", "\(summary.lost)")
        line("duplicated", "\(summary.duplicated)")
        line("accounted for", "\(summary.succeeded + failed) of \(options.requests)")
        Swift.print("by route (sent / succeeded):")
        for (route, counts) in summary.routes.sorted(by: { $0.key < $1.key }) {
            line("  \(route)", "\(counts.sent) / \(counts.succeeded)")
        }
        line(
            "unexpected outcomes",
            summary.unexpected.isEmpty
                ? "none"
                : summary.unexpected.sorted(by: { $0.key < $1.key }).map { "\($0.key) ×\($0.value)" }.joined(
                    separator: ", "))
        line(
            "resident memory",
            "\(megabytes(run.residentAfterWarmUp)) after warm-up (\(run.warmUpRequests) requests), "
                + "\(megabytes(run.residentAtEnd)) at the end: growth \(megabytes(growth)) (target < 10 MB)")
        line(
            "file descriptors",
            "\(descriptorsBefore) before, \(run.descriptorsDuring.map(String.init) ?? "n/a") during, "
                + "\(descriptorsAfter) after (target: back to \(descriptorsBefore))")
        line("fault server", run.serverAlive ? "still answering" : "NOT ANSWERING")
        line("crashes", "0 (the process ran to the end)")
        line(
            "duration",
            String(format: "%.1f s, %.0f requests/s", seconds, Double(options.requests) / max(seconds, 0.001)))

        var problems: [String] = []
        if summary.lost > 0 { problems.append("\(summary.lost) lost") }
        if summary.duplicated > 0 { problems.append("\(summary.duplicated) duplicated") }
        if summary.succeeded + failed != options.requests { problems.append("not every request accounted for") }
        if descriptorsAfter > descriptorsBefore { problems.append("file descriptors leaked") }
        if let growth, growth >= memoryGrowthLimit { problems.append("memory grew by \(megabytes(growth))") }
        if !run.serverAlive { problems.append("the fault server stopped answering") }
        Swift.print("result: " + (problems.isEmpty ? "PASS" : "FAIL (" + problems.joined(separator: ", ") + ")"))
        return problems.isEmpty
    }
}
