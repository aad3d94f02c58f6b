import CommandLine
import Errand
import Foundation
import MetMirror
import MetMuseum

/// `met mirror DIR`: fills or refreshes a mirror of the collection in a folder, with a progress line on stderr (or
/// JSON lines on stdout with `--json`) and a summary at the end.
struct MirrorCommand {
    let invocation: Invocation
    let console: Console
    let setup: ClientSetup
    let json: Bool

    /// The `--rate` values against the Met: at most its published limit.
    static let rates: ClosedRange<Double> = 0.01...MetClient.publishedRateLimit
    /// The `--rate` values against a loopback server (a replica), where the Met's limit does not apply.
    static let loopbackRates: ClosedRange<Double> = 0.01...20_000

    func run() async throws {
        let folder = try invocation.requiredArgument("DIR")
        let options = try Self.options(from: invocation)
        let rate = try self.rate()
        let store: MirrorStore
        do {
            store = try MirrorStore(directory: URL(fileURLWithPath: folder))
        } catch {
            throw Failure(
                .failure, ToolText.sentence("mirror.cannotOpen", ["folder": folder, "reason": error.description]))
        }
        var configuration = setup.configuration(console: console)
        // The mirror is its own store: keeping every object in the HTTP cache as well would double the disk used.
        configuration.middleware.removeAll { $0 is HTTPCache }
        let mirror = CollectionMirror(store: store, configuration: configuration, budget: MetClient.budget(rate: rate))
        let line = MirrorProgressLine(console: console, json: json)
        do {
            let summary = try await mirror.run(options) { event in line.show(event) }
            line.finish()
            report(summary, folder: folder)
        } catch {
            line.finish()
            try fail(error, store: store)
        }
    }

    /// At most the Met's rate (or lower with `--rate`); more only against a loopback server.
    private func rate() throws(UsageError) -> Double {
        let host = setup.baseURL.host ?? ""
        let loopback = ServerAddress.isLoopback(host)
        guard let rate = try invocation.positiveDecimal("rate", in: Self.loopbackRates)
        else { return MetClient.publishedRateLimit }
        if !loopback, rate > Self.rates.upperBound {
            throw invocation.usageError(
                "--rate above \(Int(MetClient.publishedRateLimit)) is allowed only against a loopback server; the Met "
                    + "blocks clients above its published limit")
        }
        return rate
    }

    static func options(from invocation: Invocation) throws(UsageError) -> MirrorOptions {
        let department = try invocation.integer("department", in: 1...Int.max)
        let search = invocation.value("search")
        let scope: MirrorScope
        switch (department, search) {
        case (nil, nil): scope = .all
        case (let id?, nil): scope = .department(id)
        case (nil, let text?):
            guard !text.trimmingCharacters(in: .whitespaces).isEmpty else {
                throw invocation.usageError(ToolText.sentence("mirror.searchNeedsText"))
            }
            scope = .search(text)
        case (_?, _?): throw invocation.usageError(ToolText.sentence("mirror.departmentAndSearch"))
        }
        let budget = try invocation.integer("image-budget", in: 1...10_000_000) ?? 1_000
        let images: MirrorImages
        switch invocation.value("images") ?? "none" {
        case "none": images = .none
        case "small": images = .small(budget: budget * 1_000_000)
        case let other:
            throw invocation.usageError(ToolText.sentence("mirror.imagesExpected", ["value": UsageError.echo(other)]))
        }
        return MirrorOptions(
            scope: scope, update: invocation.flag("update"),
            batchSize: try invocation.integer("batch", in: 1...10_000) ?? 100,
            concurrency: try invocation.integer("concurrency", in: 1...64) ?? 8, images: images)
    }

    private func report(_ summary: MirrorSummary, folder: String) {
        let counts = summary.counts
        if json {
            var members: [(key: String, value: JSONValue)] = [
                ("event", "finished"), ("outcome", Self.outcomeName(summary.outcome)),
                ("fetched", .integer(counts.fetched)), ("skipped", .integer(counts.skipped)),
                ("failed", .integer(counts.failed)), ("pending", .integer(counts.pending)),
                ("doneThisRun", .integer(summary.doneThisRun)), ("seconds", .number(Self.seconds(summary.elapsed))),
                ("databaseBytes", .integer(summary.databaseBytes)),
            ]
            if let changes = summary.changes {
                members.append(
                    (
                        "changes",
                        [
                            "added": .integer(changes.added), "changed": .integer(changes.changed),
                            "removed": .integer(changes.removed), "retried": .integer(changes.retried),
                        ]
                    ))
            }
            if !summary.skips.isEmpty {
                let skips = summary.skips.map { skip -> JSONValue in
                    [
                        "reason": .string(skip.reason), "count": .integer(skip.count),
                        "firstID": .integer(skip.firstID),
                    ]
                }
                members.append(("skips", .array(skips)))
            }
            return console.print(JSONValue.object(members).rendered(pretty: false))
        }
        switch summary.outcome {
        case .alreadyComplete:
            console.print(ToolText.sentence("mirror.alreadyComplete", ["folder": folder]))
        case .completed(let kind):
            if kind == .update, let changes = summary.changes {
                console.print(
                    ToolText.sentence(
                        "mirror.updated",
                        [
                            "added": String(changes.added), "changed": String(changes.changed),
                            "removed": String(changes.removed), "done": String(summary.doneThisRun),
                        ]))
            }
            console.print(
                ToolText.sentence(
                    "mirror.complete",
                    [
                        "folder": folder, "fetched": String(counts.fetched), "skipped": String(counts.skipped),
                        "failed": String(counts.failed), "done": String(summary.doneThisRun),
                        "seconds": String(format: "%.1f", Self.seconds(summary.elapsed)),
                        "megabytes": String(format: "%.1f", Double(summary.databaseBytes) / 1_000_000),
                    ]))
            for skip in summary.skips {
                console.print(
                    ToolText.sentence(
                        "mirror.skippedFor",
                        ["count": String(skip.count), "id": String(skip.firstID), "reason": skip.reason]))
            }
        }
    }

    /// Says what stopped the run and that the next run continues; the Met's failures keep their own sentence and
    /// exit code.
    private func fail(_ error: MirrorError, store: MirrorStore) throws {
        let counts = try? store.counts()
        let kept = counts.map { ToolText.sentence("mirror.kept", ["fetched": String($0.fetched)]) } ?? ""
        switch error {
        case .met(let met):
            if !json { console.diagnostic(ToolText.sentence("mirror.stopped") + kept) }
            throw met
        case .store(let problem):
            throw Failure(.failure, problem.description + kept)
        case .scopeMismatch:
            throw Failure(.usage, error.description)
        }
    }

    static func outcomeName(_ outcome: MirrorSummary.Outcome) -> JSONValue {
        switch outcome {
        case .alreadyComplete: return "alreadyComplete"
        case .completed(.full): return "completed"
        case .completed(.update): return "updated"
        }
    }

    static func seconds(_ duration: Duration) -> Double {
        Double(duration.components.seconds) + Double(duration.components.attoseconds) / 1e18
    }
}
