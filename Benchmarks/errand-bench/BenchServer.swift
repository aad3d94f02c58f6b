import Errand
import Foundation

/// The nginx the benchmark fetches from: one given by URL, or one started through `scripts/bench --serve`, which
/// uses the test harness's configuration (the same files, the same nginx template) and stops it on exit.
final class BenchServer {
    /// The plain-HTTP base URL.
    let baseURL: URL
    /// The TLS + HTTP/2 base URL and the CA that signed its certificate, when the server has one.
    let https: (url: URL, ca: URL)?
    /// The folder nginx serves files from, when known (`$SERVERS_STATE/www`).
    let www: URL?
    private let process: Process?
    private let input: Pipe?

    /// Uses `url` (with `httpsURL` and `ca`), or `ERRAND_NGINX_HTTP_URL` (with `ERRAND_NGINX_HTTPS_URL` and
    /// `ERRAND_TEST_CA`), or starts nginx.
    init(url: URL?, httpsURL: URL?, ca: URL?) throws {
        let environment = ProcessInfo.processInfo.environment
        if let url = url ?? environment["ERRAND_NGINX_HTTP_URL"].flatMap(URL.init(string:)) {
            baseURL = url
            let secure = httpsURL ?? environment["ERRAND_NGINX_HTTPS_URL"].flatMap(URL.init(string:))
            let authority = ca ?? environment["ERRAND_TEST_CA"].map { URL(fileURLWithPath: $0) }
            https = secure.flatMap { secure in authority.map { (secure, $0) } }
            www = environment["SERVERS_STATE"].map { URL(fileURLWithPath: $0).appendingPathComponent("www") }
            process = nil
            input = nil
            return
        }
        let script = Self.packageRoot.appendingPathComponent("scripts/bench")
        guard FileManager.default.isExecutableFile(atPath: script.path) else {
            throw BenchError(
                "no server: pass --url http://127.0.0.1:PORT, or run from the package so scripts/bench can start nginx")
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
        var exports: [String: String] = [:]
        var text = ""
        let reader = output.fileHandleForReading
        // SERVERS_STATE is printed last.
        while exports["SERVERS_STATE"] == nil {
            let chunk = reader.availableData
            if chunk.isEmpty { break }
            text += String(decoding: chunk, as: UTF8.self)
            for line in text.split(separator: "\n") where line.hasPrefix("export ") {
                let pair = line.dropFirst("export ".count).split(separator: "=", maxSplits: 1)
                if pair.count == 2 { exports[String(pair[0])] = String(pair[1]) }
            }
        }
        guard let found = exports["ERRAND_NGINX_HTTP_URL"].flatMap(URL.init(string:)) else {
            process.terminate()
            throw BenchError("scripts/bench --serve did not start nginx (is nginx installed?)")
        }
        baseURL = found
        let secure = exports["ERRAND_NGINX_HTTPS_URL"].flatMap(URL.init(string:))
        let authority = exports["ERRAND_TEST_CA"].map { URL(fileURLWithPath: $0) }
        https = secure.flatMap { secure in authority.map { (secure, $0) } }
        www = exports["SERVERS_STATE"].map { URL(fileURLWithPath: $0).appendingPathComponent("www") }
        self.process = process
        self.input = input
    }

    /// Stops the nginx this benchmark started (closing the script's stdin makes it stop the server and exit).
    func stop() {
        guard let process, let input else { return }
        try? input.fileHandleForWriting.close()
        process.waitUntilExit()
    }

    /// One transport for every status read, so its own connection is opened once, before the first round.
    private let statusTransport = ClientConfiguration.defaultTransport()

    /// The connections nginx has accepted since it started (its `stub_status` page), or `nil` when it has no such page.
    func acceptedConnections() async -> Int? {
        guard
            let response = try? await statusTransport.send(
                TransportRequest(url: baseURL.appendingPathComponent("nginx-status"))),
            response.status == 200
        else { return nil }
        // "Active connections: 1 \nserver accepts handled requests\n 12 12 40 \n…": the accepts are the third line's first.
        let lines = String(decoding: response.body, as: UTF8.self).split(separator: "\n")
        guard lines.count >= 3 else { return nil }
        return lines[2].split(separator: " ").first.flatMap { Int($0) }
    }

    /// The package's root folder, from this file's place in it.
    static let packageRoot = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
}
