import Errand
import Foundation

// errand-bench: Errand over curl (bare, with the resilient chain, and as cache hits), Errand over URLSession and plain
// libcurl, fetching a ~2 KB and a ~200 KB JSON file from a local nginx at several concurrencies, then a 1 GiB download
// to disk through APIClient.download and through raw libcurl writing to a file; `errand-bench upload` measures a 1 GiB
// multipart upload (UploadBenchmark.swift). See docs/Benchmarks.md for how to run it and what it measured.

func log(_ message: String) {
    FileHandle.standardError.write(Data((message + "\n").utf8))
}

func runBenchmark() async throws {
    let options = try Options(Array(CommandLine.arguments.dropFirst()))
    let server = try BenchServer(url: options.url, httpsURL: options.httpsURL, ca: options.ca)
    defer { server.stop() }
    log("errand-bench: server \(server.baseURL.absoluteString) \(server.https?.url.absoluteString ?? "(no https)")")

    let selected = BenchClient.all.filter { options.clients.contains($0.name) }
    var results: [BenchResult] = []
    for scheme in options.onlyDownloads ? [] : options.schemes {
        let base: (url: URL, ca: URL?)
        switch scheme {
        case .http: base = (server.baseURL, nil)
        case .https:
            guard let https = server.https else {
                log("errand-bench: no https server (pass --https-url and --ca); https skipped")
                continue
            }
            base = (https.url, https.ca)
        }
        for size in options.sizes {
            let clients = selected.filter { $0.sizes.contains(size) && $0.schemes.contains(scheme) }
            guard !clients.isEmpty else { continue }
            let expected = try await expectedLength(of: server.baseURL.appendingPathComponent(size.path))
            for concurrency in options.concurrencies {
                let workload = Workload(
                    size: size, scheme: scheme, baseURL: base.url, caBundle: base.ca, concurrency: concurrency,
                    requests: options.requests(for: size), expectedBytes: expected)
                results += try await fastestRounds(of: clients, on: workload, rounds: options.rounds, server: server)
            }
        }
    }
    if !options.onlyDownloads {
        print(options.json ? try Report.json(results) : Report.table(results))
    }
    guard options.downloadMegabytes > 0 else { return }
    let downloads = try await DownloadBenchmark.run(
        server: server, megabytes: options.downloadMegabytes, rounds: options.downloadRounds)
    if options.json {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys]
        print(String(decoding: try encoder.encode(["downloads": downloads]), as: UTF8.self))
    } else {
        print(DownloadBenchmark.table(downloads))
    }
}

/// Runs every client `rounds` times, interleaved so a burst of load from elsewhere on a shared machine hits all of
/// them alike. Each client's row is its fastest round (the least disturbed measurement of what the client costs) and
/// carries every round's rate, CPU per request and connections opened (warm-up included: each round sets its client
/// up anew), so ratios can pair the clients round by round.
func fastestRounds(
    of clients: [BenchClient], on workload: Workload, rounds: Int, server: BenchServer
) async throws -> [BenchResult] {
    var fastest: [String: BenchResult] = [:]
    var connections: [String: [Int]] = [:]
    var rates: [String: [Double]] = [:]
    var cpu: [String: [Double]] = [:]
    for round in 1...rounds {
        for client in clients {
            let workload = client.scaled(workload)
            let acceptedBefore = await server.acceptedConnections()
            // Detached: the measured loops run on the cooperative pool, never on the main actor this code starts on.
            let measurement = try await Task.detached { try await client.run(workload) }.value
            let acceptedAfter = await server.acceptedConnections()
            let result = BenchResult(client: client.name, workload: workload, measurement: measurement)
            if let acceptedBefore, let acceptedAfter {
                connections[client.name, default: []].append(acceptedAfter - acceptedBefore)
            }
            log(
                "  round \(round): \(client.name) \(workload.scheme.rawValue) \(workload.size.rawValue) C=\(workload.concurrency): \(Int(result.rps)) req/s"
            )
            rates[client.name, default: []].append(result.rps)
            cpu[client.name, default: []].append(result.cpuPerRequestMicroseconds)
            if result.rps > fastest[client.name]?.rps ?? 0 { fastest[client.name] = result }
        }
    }
    return clients.compactMap { client in
        fastest[client.name].map {
            $0.with(
                roundRPS: rates[client.name] ?? [], roundCPU: cpu[client.name] ?? [],
                roundConnections: connections[client.name] ?? [])
        }
    }
}

/// The file's length, from one fetch, so every benchmarked response can be checked against it.
func expectedLength(of url: URL) async throws -> Int {
    let response = try await ClientConfiguration.defaultTransport().send(
        TransportRequest(url: url, headers: ["Accept-Encoding": "identity"]))
    guard response.status == 200 else { throw BenchError("\(url.absoluteString) answered \(response.status)") }
    return response.body.count
}

do {
    if CommandLine.arguments.dropFirst().first == "upload" {
        try await UploadBenchmark.run(Array(CommandLine.arguments.dropFirst(2)))
    } else if CommandLine.arguments.dropFirst().first == "hand-offs" {
        try await HandOffBenchmark.run(Array(CommandLine.arguments.dropFirst(2)))
    } else if CommandLine.arguments.dropFirst().first == "websocket" {
        #if canImport(CCurl)
        try await WebSocketBenchmark.run(Array(CommandLine.arguments.dropFirst(2)))
        #else
        // URLSession cannot open a WebSocket on Linux, and the curl transport is not built.
        throw BenchError("errand-bench websocket needs the curl transport")
        #endif
    } else {
        try await runBenchmark()
    }
} catch {
    log("errand-bench: \(error)")
    exit(1)
}
