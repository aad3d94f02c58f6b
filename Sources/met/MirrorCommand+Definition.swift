import CommandLine
import Foundation
import MetMirror
import MetMuseum

extension MirrorCommand {
    /// `met mirror` as the parser and the help see it.
    static let definition = Command(
        "mirror", summary: "Copy the collection (or part of it) into DIR, politely, resumably; --update refreshes.",
        discussion: """
            Lists the objects, then fetches them at most --rate requests per second (the Met's 80 by default; more \
            only against a loopback server) into DIR/met-mirror.sqlite, with a full-text index. Interrupted in any \
            way, the same command continues where it stopped. Once complete, --update fetches what changed since \
            the newest stored record and removes what the Met no longer lists. Search it offline with \
            'met search --mirror DIR' and 'met show --mirror DIR'.
            """,
        positionals: [Positional("DIR", help: "The mirror's folder (created when missing).")],
        options: [
            .value("department", "ID", help: "Only this department's objects (see 'met departments')."),
            .value("search", "TEXT", help: "Only the objects a search for TEXT finds."),
            .flag("update", help: "Refresh a complete mirror with what changed since its newest record."),
            .value("rate", "R", help: "At most R object requests per second (default 80; above 80 only to loopback)."),
            .value("concurrency", "C", help: "At most C object requests in flight (default 8)."),
            .value("batch", "N", help: "Objects per stored batch (default 100): what an interruption costs again."),
            .value("images", "small|none", help: "Also keep each object's web-sized picture (default none)."),
            .value("image-budget", "MB", help: "Stop keeping pictures once they take MB megabytes (default 1000)."),
        ],
        examples: [
            "met mirror met-mirror", "met mirror arms --department 4", "met mirror met-mirror --update --json",
        ])
}

extension MetSession {
    /// The client a command uses: the Met's (or `--base-url`'s), or with `--mirror DIR` one that answers from the
    /// mirror there, offline.
    static func client(context: CommandContext, setup: ClientSetup, console: Console) throws -> MetClient {
        guard let folder = context.invocation.value("mirror") else {
            return MetClient(configuration: setup.configuration(console: console))
        }
        let directory = URL(fileURLWithPath: folder)
        guard FileManager.default.fileExists(atPath: directory.appendingPathComponent(MirrorStore.fileName).path) else {
            throw Failure(.usage, ToolText.sentence("mirror.noMirror", ["folder": folder]))
        }
        do {
            return MetClient(mirror: try MirrorStore(directory: directory))
        } catch {
            throw Failure(
                .failure, ToolText.sentence("mirror.cannotOpen", ["folder": folder, "reason": error.description]))
        }
    }
}
