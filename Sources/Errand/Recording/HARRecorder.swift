import Dispatch
import Foundation
import Synchronization

/// An observer that records every exchange of the clients it observes into a HAR 1.2 file, which browsers'
/// developer tools, proxies and HAR viewers open, and ``HARReplayTransport`` answers from.
///
/// ```swift
/// let recorder = try HARRecorder(file: URL(fileURLWithPath: "session.har"))
/// let client = APIClient(configuration: ClientConfiguration(baseURL: base, observers: [recorder]))
/// ```
///
/// Each hop of a redirect is an entry of its own, and so is each retry and each answer the cache gives alone
/// (`_errandCache` says how the cache took part). By default what is recorded is what observers see: secrets are
/// masked by the client's ``ClientConfiguration/redaction`` (`Authorization`, `Cookie`, `Set-Cookie` always; the
/// query names and values it names), so a recording can be sent with a bug report. Bodies above ``bodyLimit`` bytes are cut there,
/// with a comment saying so; a streamed body (a download, an event stream) is recorded with its status, headers,
/// sizes and timings, and its first ``streamedBodyLimit`` bytes (none by default), kept as they pass to the reader.
///
/// > Warning: ``Secrets/included`` records every token, cookie and API key in clear. Use it only for a recording
/// > that stays on the machine (reproducing a bug locally), never for one that is sent, committed or shared; the file
/// > says so in its `comment` and its creator's.
///
/// The file is rewritten after each exchange, to a temporary file that then replaces it, so a process killed at any
/// moment leaves a valid archive of the entries written so far. Writes happen off the caller's task, one at a time;
/// ``flush()`` waits until the file holds every entry so far.
public final class HARRecorder: ExchangeObserver {
    /// The body size kept by default: 1 MB.
    public static let defaultBodyLimit = 1_000_000

    /// Whether a recording masks secrets, as every observer is given them, or holds them in clear.
    public enum Secrets: Sendable, Hashable {
        /// Masked by the client's ``ClientConfiguration/redaction``: the default, safe to send with a bug report.
        case redacted
        /// In clear: tokens, cookies, API keys and their echoes in bodies, exactly as sent and received.
        ///
        /// > Warning: Anyone who reads the file can use its credentials. Keep such a recording local and delete it
        /// > when the bug is found.
        case included
    }

    /// What the file's `comment` and its creator's say when it holds secrets.
    public static let secretsWarning =
        "Holds secrets in clear (tokens, cookies, API keys): recorded with secrets included, for a local reproduction. Do not share it."

    /// The file the archive is written to.
    public let file: URL
    /// The most bytes of each body kept.
    public let bodyLimit: Int
    /// The most bytes of each streamed body (a download, an event stream) kept; 0 keeps none.
    public let streamedBodyLimit: Int
    /// Whether secrets are masked or recorded in clear.
    public let secrets: Secrets

    private struct Recording {
        var log: HAR.Log
        var machine = HARWriteMachine()
        var writeFailure: String?
        var waiters: [CheckedContinuation<Void, Never>] = []
    }

    private let recording: Mutex<Recording>
    private let queue = DispatchQueue(label: "Errand.HARRecorder")

    /// Starts a recording: writes an archive with no entries to `file` at once, replacing what was there.
    ///
    /// - Parameters:
    ///   - file: where the archive is written.
    ///   - bodyLimit: the most bytes kept of a body read whole.
    ///   - streamedBodyLimit: the most bytes kept of a streamed body, as they pass; 0 (the default) keeps none.
    ///   - secrets: ``Secrets/redacted`` (the default), or ``Secrets/included`` for a file that holds every secret in
    ///     clear and must never leave the machine.
    ///   - creator: the program named as the archive's writer.
    /// - Throws: the file system's error when the file cannot be written.
    public init(
        file: URL, bodyLimit: Int = HARRecorder.defaultBodyLimit, streamedBodyLimit: Int = 0,
        secrets: Secrets = .redacted,
        creator: HAR.Creator = HAR.Creator(name: "Errand", version: ClientConfiguration.libraryVersion)
    ) throws {
        self.file = file
        self.bodyLimit = bodyLimit
        self.streamedBodyLimit = max(0, streamedBodyLimit)
        self.secrets = secrets
        var log = HAR.Log(creator: creator)
        if secrets == .included {
            log.comment = Self.secretsWarning
            log.creator.comment = Self.secretsWarning
        }
        recording = Mutex(Recording(log: log))
        try Self.write(log, to: file)
    }

    /// Adds the exchange as an entry and has the file rewritten.
    public func exchangeDidFinish(_ event: ExchangeEvent) {
        let entry = HAR.Entry(event, bodyLimit: bodyLimit)
        let action = recording.withLock { recording in
            recording.log.entries.append(entry)
            return recording.machine.entryAdded()
        }
        perform(action)
    }

    /// The entries recorded so far.
    public var entries: [HAR.Entry] { recording.withLock { $0.log.entries } }

    /// Why the last write failed, when it did (a full disk, a removed folder); the next entry tries again.
    public var writeFailure: String? { recording.withLock { $0.writeFailure } }

    /// Returns when the file holds every entry recorded so far.
    public func flush() async {
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            let settled = recording.withLock { recording in
                if recording.machine.isSettled { return true }
                recording.waiters.append(continuation)
                return false
            }
            if settled { continuation.resume() }
        }
    }

    private func perform(_ action: HARWriteMachine.Action) {
        switch action {
        case .none:
            return
        case .settle:
            let waiters = recording.withLock { recording in
                defer { recording.waiters = [] }
                return recording.waiters
            }
            for waiter in waiters { waiter.resume() }
        case .write:
            queue.async { [self] in
                let log = recording.withLock { $0.log }
                var failure: String?
                do { try Self.write(log, to: file) } catch { failure = "\(error)" }
                let next = recording.withLock { recording in
                    recording.writeFailure = failure
                    return recording.machine.writeEnded()
                }
                perform(next)
            }
        }
    }

    /// Writes the whole archive beside the file and renames it over the file: a reader, or a process killed midway,
    /// sees the old archive or the new one, never a part.
    private static func write(_ log: HAR.Log, to file: URL) throws {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        try encoder.encode(HAR(log: log)).write(to: file, options: .atomic)
    }
}

extension HARRecorder: RecordingObserver {
    var receivesSecrets: Bool { secrets == .included }
}
