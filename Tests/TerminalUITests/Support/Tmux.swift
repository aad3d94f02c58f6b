import Foundation

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A tmux server of its own (its own socket) running one command in an 80×24 (or other) window, for the end-to-end
/// tests: keys go in with `send-keys`, the screen comes out with `capture-pane`.
///
/// Waiting for the screen polls `capture-pane` until the text appears or a deadline passes: the app is another
/// process, and its screen is the only thing there is to synchronise on.
final class Tmux: Sendable {
    let socket: String
    static let executable = ["/usr/bin/tmux", "/usr/local/bin/tmux", "/opt/homebrew/bin/tmux"].first {
        FileManager.default.isExecutableFile(atPath: $0)
    }

    /// Starts `command` through `/bin/sh` in a detached session of a new server.
    init(command: String, columns: Int = 80, rows: Int = 24, environment: [String: String]) async throws {
        socket = "errand-browse-\(UUID().uuidString.prefix(8))"
        var arguments = ["-f", "/dev/null", "new-session", "-d", "-s", "main", "-x", "\(columns)", "-y", "\(rows)"]
        for (key, value) in environment.sorted(by: { $0.key < $1.key }) { arguments += ["-e", "\(key)=\(value)"] }
        arguments.append(command)
        try await run(arguments)
    }

    /// Runs a tmux command on this server and returns what it printed (through a file: a screen with colours is
    /// more than a pipe holds).
    @discardableResult
    func run(_ arguments: [String]) async throws -> String {
        guard let executable = Self.executable else { throw Missing() }
        // The server takes its idea of the character set from the first client: UTF-8, or wide characters and
        // block elements would come back as underscores.
        let environment = ProcessInfo.processInfo.environment.merging(["LANG": "C.UTF-8", "LC_ALL": "C.UTF-8"]) { $1 }
        return try await Spawn.run(executable, ["-L", socket] + arguments, environment: environment).output
    }

    /// Types text literally.
    func type(_ text: String) async throws { try await run(["send-keys", "-t", "main", "-l", text]) }

    /// Sends keys by tmux's names (`Enter`, `Escape`, `BSpace`, `Down`, `C-c`).
    func press(_ keys: String...) async throws { try await run(["send-keys", "-t", "main"] + keys) }

    /// The screen's text; with `colors`, with the escape sequences of its colours and attributes.
    func screen(colors: Bool = false) async throws -> String {
        try await run(["capture-pane", "-p", "-t", "main"] + (colors ? ["-e"] : []))
    }

    /// A pane variable, as `alternate_on`.
    func value(_ name: String) async throws -> String {
        try await run(["display-message", "-p", "-t", "main", "#{\(name)}"]).trimmingCharacters(
            in: .whitespacesAndNewlines)
    }

    /// Resizes the window.
    func resize(columns: Int, rows: Int) async throws {
        try await run(["resize-window", "-t", "main", "-x", "\(columns)", "-y", "\(rows)"])
    }

    /// Waits until the screen satisfies `condition`, polling; returns the screen, or throws with the last one.
    @discardableResult
    func wait(
        for what: String, timeout: Duration = .seconds(10), _ condition: (String) -> Bool = { _ in true }
    ) async throws -> String {
        let deadline = ContinuousClock.now + timeout
        var last = ""
        while ContinuousClock.now < deadline {
            last = try await screen()
            if last.contains(what), condition(last) { return last }
            try await Task.sleep(for: .milliseconds(40))
        }
        throw Timeout(what: what, screen: last)
    }

    /// Stops the server and whatever runs in it.
    func stop() async {
        _ = try? await run(["kill-server"])
        // A server that is killed leaves its socket file behind.
        let folder = ProcessInfo.processInfo.environment["TMUX_TMPDIR"] ?? "/tmp"
        try? FileManager.default.removeItem(atPath: "\(folder)/tmux-\(getuid())/\(socket)")
    }

    struct Missing: Error, CustomStringConvertible {
        var description: String { "tmux is not installed (scripts/test installs it on Debian)" }
    }

    struct Timeout: Error, CustomStringConvertible {
        let what: String
        let screen: String
        var description: String { "“\(what)” did not appear; the screen was:\n\(screen)" }
    }
}
