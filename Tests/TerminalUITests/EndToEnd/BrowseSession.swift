import Foundation
import Testing

/// One app running under tmux against a replica of its own, with a private cache: what the end-to-end tests drive.
struct BrowseSession {
    let tmux: Tmux
    let replica: ReplicaProcess
    let home: URL

    /// Starts the replica, then `tool browse` in a window of the size, with 24-bit colour.
    static func start(
        _ tool: String, arguments: [String] = [], columns: Int = 80, rows: Int = 24,
        environment: [String: String] = ["COLORTERM": "truecolor"]
    ) async throws -> BrowseSession {
        let replica = try ReplicaProcess()
        try await replica.start()
        let home = FileManager.default.temporaryDirectory.appendingPathComponent("browse-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: home, withIntermediateDirectories: true)
        let binary = try BuiltTools.path(tool)
        let words = [binary, "browse", "--base-url", replica.url] + arguments
        // After the app, the shell reports how it ended and the terminal's settings, on the normal screen.
        let command =
            words.map { "'\($0)'" }.joined(separator: " ")
            + "; echo \"exit:$?\"; stty -a | tr '\\n' ' '; echo; echo stty-done; sleep 600"
        // NO_COLOR empty is NO_COLOR unset: the tests' own environment must not decide the colours.
        var variables = ["NO_COLOR": ""].merging(environment) { $1 }
        variables["XDG_CACHE_HOME"] = home.appendingPathComponent("cache").path
        variables["HOME"] = home.path
        variables["LANG"] = "C.UTF-8"
        let tmux = try await Tmux(command: command, columns: columns, rows: rows, environment: variables)
        return BrowseSession(tmux: tmux, replica: replica, home: home)
    }

    /// Quits with `keys` and checks the terminal came back as it was: the normal screen, the cursor shown, no mouse
    /// reports, line editing and echo on; returns the exit status the shell saw.
    func quitAndCheckRestored(
        with keys: String = "q", sourceLocation: SourceLocation = #_sourceLocation
    ) async throws -> String {
        try await tmux.press(keys)
        return try await checkRestored(sourceLocation: sourceLocation)
    }

    /// Waits for the app to end and checks the terminal came back as it was.
    func checkRestored(sourceLocation: SourceLocation = #_sourceLocation) async throws -> String {
        let screen = try await tmux.wait(for: "stty-done")
        #expect(
            try await tmux.value("alternate_on") == "0", "left the alternate screen", sourceLocation: sourceLocation)
        #expect(try await tmux.value("cursor_flag") == "1", "the cursor shows again", sourceLocation: sourceLocation)
        #expect(try await tmux.value("mouse_any_flag") == "0", "no more mouse reports", sourceLocation: sourceLocation)
        #expect(
            screen.contains(" icanon") && !screen.contains("-icanon"), "line editing is back",
            sourceLocation: sourceLocation)
        #expect(screen.contains(" echo ") && !screen.contains("-echo "), "echo is back", sourceLocation: sourceLocation)
        let status = screen.split(separator: "\n").first { $0.hasPrefix("exit:") }.map { String($0.dropFirst(5)) }
        return status ?? "none"
    }

    /// Runs `body` on a started session and stops it afterwards, whatever happened.
    static func with(
        _ tool: String, arguments: [String] = [], environment: [String: String] = ["COLORTERM": "truecolor"],
        _ body: (BrowseSession) async throws -> Void
    ) async throws {
        let session = try await start(tool, arguments: arguments, environment: environment)
        do {
            try await body(session)
        } catch {
            await session.stop()
            throw error
        }
        await session.stop()
    }

    func stop() async {
        await tmux.stop()
        try? await replica.stop()
        try? FileManager.default.removeItem(at: home)
    }
}

/// Whether the end-to-end tests can run: tmux, the replica's Python, and the built tools. In CI they must.
enum EndToEnd {
    static var isPossible: Bool {
        let ready =
            Tmux.executable != nil && FileManager.default.isExecutableFile(atPath: ReplicaProcess.python)
            && BuiltTools.directory != nil
        if !ready, !isCI {
            print("skipping: the browse end-to-end tests need tmux, /usr/bin/python3 and the built tools")
        }
        return ready || isCI
    }

    static var isCI: Bool {
        let value = ProcessInfo.processInfo.environment["CI"]?.lowercased() ?? ""
        return value == "true" || value == "1"
    }
}
