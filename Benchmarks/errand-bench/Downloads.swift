import Errand
import Foundation
#if canImport(CCurl)
import CCurl
#endif

/// The download benchmark: one large file from the local nginx to disk, through `APIClient.download` over curl and
/// through raw libcurl writing to a file, in interleaved rounds of the same run; each client's row is its fastest round,
/// and the ratio is the median of the rounds' ratios.
/// Both flush the file to disk (`fsync`) before the clock stops. Targets: Errand at least 0.8× raw libcurl's
/// throughput, and a peak resident memory under 64 MB.
enum DownloadBenchmark {
    struct Row: Sendable, Encodable {
        let client: String
        let bytes: Int64
        let seconds: Double
        let megabytesPerSecond: Double
        let cpuSeconds: Double
        let peakRSSMB: Double
        let roundMegabytesPerSecond: [Double]

        enum CodingKeys: String, CodingKey {
            case client, bytes, seconds
            case megabytesPerSecond = "mb_per_second"
            case cpuSeconds = "cpu_seconds"
            case peakRSSMB = "peak_rss_mb"
            case roundMegabytesPerSecond = "round_mb_per_second"
        }
    }

    static let clients = ["errand-download", "raw-libcurl-file"]

    /// Writes a sparse file of `megabytes` MiB into the server's download folder (never committed, removed afterwards
    /// by the harness with the rest of its state), and measures both clients downloading it `rounds` times.
    static func run(server: BenchServer, megabytes: Int, rounds: Int) async throws -> [Row] {
        guard let www = server.www else {
            log("errand-bench: the download benchmark needs the server's files folder (SERVERS_STATE); skipped")
            return []
        }
        let folder = www.appendingPathComponent("downloads")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let name = "bench-\(megabytes)MiB.bin"
        let served = folder.appendingPathComponent(name)
        let bytes = Int64(megabytes) << 20
        FileManager.default.createFile(atPath: served.path, contents: nil)
        let handle = try FileHandle(forWritingTo: served)
        try handle.truncate(atOffset: UInt64(bytes))
        try handle.close()
        defer { try? FileManager.default.removeItem(at: served) }
        let url = server.baseURL.appendingPathComponent("downloads/\(name)")
        let scratch = FileManager.default.temporaryDirectory.appendingPathComponent("errand-bench-downloads-\(UUID())")
        try FileManager.default.createDirectory(at: scratch, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: scratch) }

        var best: [String: Measurement] = [:]
        var rates: [String: [Double]] = [:]
        for round in 1...rounds {
            for client in clients {
                let destination = scratch.appendingPathComponent("\(client).bin")
                try? FileManager.default.removeItem(at: destination)
                let measurement = try await Task.detached {
                    try await measure(client, url: url, destination: destination)
                }.value
                let size = (try? FileManager.default.attributesOfItem(atPath: destination.path)[.size] as? NSNumber)??
                    .int64Value
                guard size == bytes else { throw BenchError("\(client) wrote \(size ?? -1) bytes, not \(bytes)") }
                try? FileManager.default.removeItem(at: destination)
                let rate = Double(bytes) / 1_048_576 / measurement.seconds
                log(
                    "  round \(round): \(client) \(megabytes) MiB to disk: \(Int(rate)) MiB/s, peak RSS \(Int(measurement.peakRSSMegabytes)) MB"
                )
                rates[client, default: []].append(rate)
                if measurement.seconds < best[client]?.seconds ?? .infinity { best[client] = measurement }
            }
        }
        return clients.compactMap { client in
            best[client].map {
                Row(
                    client: client, bytes: bytes, seconds: $0.seconds,
                    megabytesPerSecond: Double(bytes) / 1_048_576 / $0.seconds,
                    cpuSeconds: $0.cpuSeconds, peakRSSMB: $0.peakRSSMegabytes,
                    roundMegabytesPerSecond: rates[client] ?? [])
            }
        }
    }

    private static func measure(_ client: String, url: URL, destination: URL) async throws -> Measurement {
        switch client {
        case "errand-download":
            #if canImport(CCurl)
            let transport = CurlTransport()
            #else
            let transport = URLSessionTransport()
            #endif
            let api = APIClient(configuration: ClientConfiguration(baseURL: url, transport: transport))
            return try await Measurement.of {
                _ = try await api.download(Request(url: url), to: destination)
            }
        default:
            return try await rawLibcurl(url: url, destination: destination)
        }
    }

    /// libcurl as a C program would download a file: one easy handle, `curl_easy_perform` on a thread of its own,
    /// the write callback appending to the file with `write(2)`, then `fsync`.
    private static func rawLibcurl(url: URL, destination: URL) async throws -> Measurement {
        #if canImport(CCurl)
        try await withCheckedThrowingContinuation { continuation in
            Thread {
                continuation.resume(
                    with: Result {
                        try Measurement.ofBlocking {
                            let fd = open(destination.path, O_WRONLY | O_CREAT | O_TRUNC, 0o644)
                            guard fd >= 0 else { throw BenchError("cannot create \(destination.path)") }
                            defer { close(fd) }
                            guard let easy = curl_easy_init() else { throw BenchError("libcurl: no easy handle") }
                            defer { curl_easy_cleanup(easy) }
                            var descriptor = fd
                            _ = errand_curl_easy_setopt_string(easy, CURLOPT_URL, url.absoluteString)
                            _ = errand_curl_easy_setopt_long(easy, CURLOPT_NOSIGNAL, 1)
                            _ = errand_curl_easy_setopt_data_callback(easy, CURLOPT_WRITEFUNCTION) {
                                buffer, size, count, context in
                                guard let buffer, let context else { return 0 }
                                let fd = context.assumingMemoryBound(to: Int32.self).pointee
                                var offset = 0
                                let total = size * count
                                while offset < total {
                                    let written = write(fd, buffer + offset, total - offset)
                                    if written <= 0 { return 0 }
                                    offset += written
                                }
                                return total
                            }
                            try withUnsafeMutablePointer(to: &descriptor) { pointer in
                                _ = errand_curl_easy_setopt_pointer(easy, CURLOPT_WRITEDATA, pointer)
                                let code = curl_easy_perform(easy)
                                guard code == CURLE_OK else {
                                    throw BenchError("libcurl: \(String(cString: curl_easy_strerror(code)))")
                                }
                            }
                            guard fsync(fd) == 0 else { throw BenchError("fsync failed") }
                        }
                    })
            }.start()
        }
        #else
        throw BenchError("raw libcurl is not available in this build")
        #endif
    }

    /// The comparison as a Markdown table, with the targets marked.
    static func table(_ results: [Row]) -> String {
        guard let errand = results.first(where: { $0.client == "errand-download" }) else { return "" }
        let raw = results.first(where: { $0.client == "raw-libcurl-file" })
        var lines = [
            "", "| download of \(errand.bytes >> 20) MiB to disk (fsync) | MiB/s | seconds | CPU s | peak RSS MB |",
            "| --- | ---: | ---: | ---: | ---: |",
        ]
        for result in results {
            lines.append(
                String(
                    format: "| %@ | %.0f | %.2f | %.2f | %.1f |", result.client, result.megabytesPerSecond,
                    result.seconds,
                    result.cpuSeconds, result.peakRSSMB))
        }
        if let raw {
            // Round by round, as the request tables pair their clients: both ran moments apart in each round.
            let ratios = zip(errand.roundMegabytesPerSecond, raw.roundMegabytesPerSecond).map { $0 / $1 }.sorted()
            let median = ratios.isEmpty ? 0 : ratios[ratios.count / 2]
            lines.append("")
            lines.append(
                String(
                    format:
                        "errand-download / raw-libcurl-file throughput: %.2f× %@ (target ≥ 0.8×; median of %d rounds, %.2f–%.2f; fastest rounds %.2f×)",
                    median, median >= 0.8 ? "PASS" : "FAIL", ratios.count, ratios.first ?? 0, ratios.last ?? 0,
                    errand.megabytesPerSecond / raw.megabytesPerSecond))
        }
        lines.append(
            String(
                format: "errand-download peak RSS: %.1f MB %@ (target < 64 MB)", errand.peakRSSMB,
                errand.peakRSSMB < 64 ? "PASS" : "FAIL"))
        return lines.joined(separator: "\n")
    }
}
