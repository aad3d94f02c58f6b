import Foundation

/// One row of the results.
struct BenchResult: Sendable, Encodable {
    let client: String
    let size: String
    let concurrency: Int
    let requests: Int
    let seconds: Double
    let rps: Double
    let cpuSeconds: Double
    let peakRSSMB: Double

    enum CodingKeys: String, CodingKey {
        case client, size, concurrency, requests, seconds, rps
        case cpuSeconds = "cpu_seconds"
        case peakRSSMB = "peak_rss_mb"
    }

    init(client: String, workload: Workload, measurement: Measurement) {
        self.client = client
        size = workload.size.rawValue
        concurrency = workload.concurrency
        requests = workload.requests
        seconds = measurement.seconds
        rps = Double(workload.requests) / measurement.seconds
        cpuSeconds = measurement.cpuSeconds
        peakRSSMB = measurement.peakRSSMegabytes
    }
}

/// Prints results as a Markdown table with ratios, or as one JSON document.
enum Report {
    static func json(_ results: [BenchResult]) throws -> String {
        struct Document: Encodable { let results: [BenchResult] }
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys]
        return String(decoding: try encoder.encode(Document(results: results)), as: UTF8.self)
    }

    static func table(_ results: [BenchResult]) -> String {
        var lines = [
            "| client | size | C | requests | seconds | req/s | CPU s | CPU ms/req | peak RSS MB |",
            "| --- | --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: |",
        ]
        for result in results {
            let cpuPerRequest = result.cpuSeconds * 1000 / Double(result.requests)
            lines.append(
                "| \(result.client) | \(result.size) | \(result.concurrency) | \(result.requests) | "
                    + "\(format(result.seconds, 2)) | \(format(result.rps, 0)) | \(format(result.cpuSeconds, 2)) | "
                    + "\(format(cpuPerRequest, 3)) | \(format(result.peakRSSMB, 1)) |")
        }
        let ratios = self.ratios(results)
        if !ratios.isEmpty {
            lines.append("")
            lines.append("| ratio | size | C | value | target |")
            lines.append("| --- | --- | ---: | ---: | ---: |")
            lines += ratios
        }
        return lines.joined(separator: "\n")
    }

    /// The ratios the targets are stated in, for the rows present.
    private static func ratios(_ results: [BenchResult]) -> [String] {
        func rps(_ client: String, _ size: String, _ concurrency: Int) -> Double? {
            results.first { $0.client == client && $0.size == size && $0.concurrency == concurrency }?.rps
        }
        var lines: [String] = []
        for size in ["small", "big"] {
            for concurrency in [1, 16, 64] {
                guard let curl = rps("errand-curl", size, concurrency) else { continue }
                if let session = rps("errand-urlsession", size, concurrency) {
                    let target = size == "small" && concurrency == 16 ? "≥ 10×" : ""
                    lines.append("| errand-curl / errand-urlsession | \(size) | \(concurrency) | \(format(curl / session, 1))× | \(target) |")
                }
                if let raw = rps("raw-libcurl", size, concurrency) {
                    let target = concurrency == 64 ? "" : "≥ 0.75×"
                    lines.append("| errand-curl / raw-libcurl | \(size) | \(concurrency) | \(format(curl / raw, 2))× | \(target) |")
                }
            }
        }
        return lines
    }

    private static func format(_ value: Double, _ decimals: Int) -> String {
        String(format: "%.\(decimals)f", value)
    }
}
