import Foundation

/// The nginx the benchmark fetches from: one given by URL, or one started through `scripts/bench --serve`, which
/// uses the test harness's configuration (the same files, the same nginx template) and stops it on exit.
final class BenchServer {
    /// The plain-HTTP base URL.
    let baseURL: URL
    private let process: Process?
    private let input: Pipe?

    /// Uses `url`, or `ERRAND_NGINX_HTTP_URL`, or starts nginx.
    init(url: URL?) throws {
        if let url = url ?? ProcessInfo.processInfo.environment["ERRAND_NGINX_HTTP_URL"].flatMap(URL.init(string:)) {
            baseURL = url
            process = nil
            input = nil
            return
        }
        let script = Self.packageRoot.appendingPathComponent("scripts/bench")
        guard FileManager.default.isExecutableFile(atPath: script.path) else {
            throw BenchError("no server: pass --url http://127.0.0.1:PORT, or run from the package so scripts/bench can start nginx")
        }
        let process = Process()
        let output = Pipe()
        let input = Pipe()
        process.executableURL = URL(fileURLWithPath: "/bin/bash")
        process.arguments = [script.path, "--serve"]
        process.standardOutput = output
        process.standardInput = input
        try process.run()
        // The script prints `export NAME=value` lines once nginx accepts connections, then waits for its stdin to close.
        var found: URL?
        var text = ""
        let reader = output.fileHandleForReading
        while found == nil {
            let chunk = reader.availableData
            if chunk.isEmpty { break }
            text += String(decoding: chunk, as: UTF8.self)
            for line in text.split(separator: "\n") where line.hasPrefix("export ERRAND_NGINX_HTTP_URL=") {
                found = URL(string: String(line.dropFirst("export ERRAND_NGINX_HTTP_URL=".count)))
            }
        }
        guard let found else {
            process.terminate()
            throw BenchError("scripts/bench --serve did not start nginx (is nginx installed?)")
        }
        baseURL = found
        self.process = process
        self.input = input
    }

    /// Stops the nginx this benchmark started (closing the script's stdin makes it stop the server and exit).
    func stop() {
        guard let process, let input else { return }
        try? input.fileHandleForWriting.close()
        process.waitUntilExit()
    }

    /// The package's root folder, from this file's place in it.
    static let packageRoot = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
}
