import Foundation
import TestSupport

/// Runs a built command-line tool (`mealdb`, `met`) as a child process and collects what it printed.
struct ToolProcess {
    /// What a run produced.
    struct Outcome: CustomStringConvertible {
        var status: Int32
        var stdout: String
        var stderr: String

        var description: String { "exit \(status)\n--- stdout\n\(stdout)\n--- stderr\n\(stderr)" }

        /// The stdout parsed as JSON.
        func json() throws -> Any {
            try JSONSerialization.jsonObject(with: Data(stdout.utf8), options: [.fragmentsAllowed])
        }
    }

    /// The tool's name.
    let name: String
    /// The environment every run gets (a private cache folder, no color, no inherited tool variables).
    var environment: [String: String]
    /// A private folder for the cache and outputs of this tool's runs.
    let home: URL
    /// The program to run; the built tool of that name unless given.
    let executable: URL

    init(_ name: String, executable: URL? = nil, environment inherited: [String: String]? = nil) throws {
        self.name = name
        self.executable = executable ?? Self.binaryDirectory.appendingPathComponent(name)
        home = FileManager.default.temporaryDirectory.appendingPathComponent("cli-\(name)-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: home, withIntermediateDirectories: true)
        var environment = ProcessInfo.processInfo.environment.filter { key, _ in
            !key.hasPrefix("MEALDB_") && !key.hasPrefix("MET_")
        }
        environment["XDG_CACHE_HOME"] = home.appendingPathComponent("cache").path
        environment["HOME"] = home.path
        environment["NO_COLOR"] = "1"
        self.environment = inherited ?? environment
    }

    /// Where the built binaries are: `ERRAND_CLI_DIR`, else beside the test bundle (the same build folder).
    static var binaryDirectory: URL {
        if let dir = ProcessInfo.processInfo.environment["ERRAND_CLI_DIR"] { return URL(fileURLWithPath: dir) }
        var url = URL(fileURLWithPath: CommandLine.arguments[0]).resolvingSymlinksInPath()
        while url.path != "/" {
            url.deleteLastPathComponent()
            if FileManager.default.isExecutableFile(atPath: url.appendingPathComponent("mealdb").path) { return url }
        }
        return Fixtures.packageRoot.appendingPathComponent(".build/debug")
    }

    /// Runs the tool with arguments; `interruptAfter` sends SIGINT once that much time has passed.
    func run(
        _ arguments: [String], environment extra: [String: String] = [:], interruptAfter: Duration? = nil,
        timeout: Duration = .seconds(60)
    ) async throws -> Outcome {
        let process = ChildProcess()
        process.executableURL = executable
        process.arguments = arguments
        process.environment = environment.merging(extra) { $1 }
        process.currentDirectoryURL = home
        let id = UUID().uuidString
        let outURL = home.appendingPathComponent("\(id).out"), errURL = home.appendingPathComponent("\(id).err")
        for url in [outURL, errURL] where !FileManager.default.createFile(atPath: url.path, contents: nil) {
            throw CocoaError(.fileWriteUnknown, userInfo: [NSFilePathErrorKey: url.path])
        }
        let out = try FileHandle(forWritingTo: outURL), err = try FileHandle(forWritingTo: errURL)
        process.standardOutput = out
        process.standardError = err
        process.standardInput = FileHandle.nullDevice
        let exited = AsyncStream<Int32>.makeStream()
        process.terminationHandler = { process in
            exited.continuation.yield(process.terminationStatus)
            exited.continuation.finish()
        }
        try process.run()
        let watchdog = Task {
            if let interruptAfter {
                try await Task.sleep(for: interruptAfter)
                process.interrupt()
            }
            try await Task.sleep(for: timeout)
            process.terminate()
        }
        var status: Int32 = -1
        for await code in exited.stream { status = code }
        watchdog.cancel()
        try out.close()
        try err.close()
        return Outcome(
            status: status,
            stdout: String(decoding: try Data(contentsOf: outURL), as: UTF8.self),
            stderr: String(decoding: try Data(contentsOf: errURL), as: UTF8.self))
    }
}
