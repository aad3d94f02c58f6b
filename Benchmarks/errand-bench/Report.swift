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
    /// CPU seconds every process on the machine used during the round (Linux), the server's included.
    let machineCPUSeconds: Double?
    /// The median request latency in milliseconds, where the client measured it.
    let p50Milliseconds: Double?
    /// The rate of every round, in the order they ran.
    private(set) var roundRPS: [Double] = []

    enum CodingKeys: String, CodingKey {
        case client, size, concurrency, requests, seconds, rps
        case cpuSeconds = "cpu_seconds"
        case peakRSSMB = "peak_rss_mb"
        case machineCPUSeconds = "machine_cpu_seconds"
        case p50Milliseconds = "p50_ms"
        case roundRPS = "round_rps"
    }

    /// This result with the rates of every round.
    func with(roundRPS: [Double]) -> BenchResult {
        var copy = self
        copy.roundRPS = roundRPS
        return copy
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
        machineCPUSeconds = measurement.machineCPUSeconds
        p50Milliseconds = measurement.p50Seconds.map { $0 * 1000 }
    }
}

/// A ratio of two clients' throughput in the same run, with the target it is held to, if any.
struct BenchRatio: Sendable, Encodable {
    let name: String
    let size: String
    let concurrency: Int
    let value: Double
    /// The least acceptable value; `nil` for ratios shown for information.
    let target: Double?

    var passes: Bool? { target.map { value >= $0 } }

    enum CodingKeys: String, CodingKey { case name, size, concurrency, value, target, passes }

    func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(name, forKey: .name)
        try container.encode(size, forKey: .size)
        try container.encode(concurrency, forKey: .concurrency)
        try container.encode(value, forKey: .value)
        try container.encodeIfPresent(target, forKey: .target)
        try container.encodeIfPresent(passes, forKey: .passes)
    }
}

/// Prints results as a Markdown table with ratios, or as one JSON document.
enum Report {
    static func json(_ results: [BenchResult]) throws -> String {
        struct Document: Encodable {
            let results: [BenchResult]
            let ratios: [BenchRatio]
        }
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys]
        return String(decoding: try encoder.encode(Document(results: results, ratios: ratios(results))), as: UTF8.self)
    }

    static func table(_ results: [BenchResult]) -> String {
        var lines = [
            "| client | size | C | requests | seconds | req/s | p50 ms | CPU s | CPU ms/req | machine CPU ms/req "
                + "| peak RSS MB |",
            "| --- | --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |",
        ]
        for result in results {
            let cpuPerRequest = result.cpuSeconds * 1000 / Double(result.requests)
            let machinePerRequest =
                result.machineCPUSeconds.map { format($0 * 1000 / Double(result.requests), 3) } ?? ""
            lines.append(
                "| \(result.client) | \(result.size) | \(result.concurrency) | \(result.requests) | "
                    + "\(format(result.seconds, 2)) | \(format(result.rps, 0)) | "
                    + "\(result.p50Milliseconds.map { format($0, 3) } ?? "") | \(format(result.cpuSeconds, 2)) | "
                    + "\(format(cpuPerRequest, 3)) | \(machinePerRequest) | \(format(result.peakRSSMB, 1)) |")
        }
        let ratios = self.ratios(results)
        if !ratios.isEmpty {
            lines.append("")
            lines.append("| ratio (req/s, median of paired rounds) | size | C | value | target | result |")
            lines.append("| --- | --- | ---: | ---: | ---: | --- |")
            for ratio in ratios {
                let decimals = ratio.value >= 10 ? 0 : ratio.value >= 3 ? 1 : 2
                let target = ratio.target.map { "≥ \(format($0, $0 < 1 ? 2 : 0))×" } ?? ""
                let verdict = ratio.passes.map { $0 ? "PASS" : "FAIL" } ?? ""
                lines.append(
                    "| \(ratio.name) | \(ratio.size) | \(ratio.concurrency) | \(format(ratio.value, decimals))× | \(target) | \(verdict) |")
            }
            let held = ratios.filter { $0.target != nil }
            let failed = held.filter { $0.passes == false }
            lines.append("")
            lines.append("Targets: \(held.count - failed.count) of \(held.count) PASS"
                + (failed.isEmpty ? "" : "; FAIL: " + failed.map { "\($0.name) \($0.size) C=\($0.concurrency)" }.joined(separator: ", ")))
        }
        return lines.joined(separator: "\n")
    }

    /// The ratios the targets are stated in, for the rows present; ratios without a target are shown for context.
    ///
    /// A ratio is the median over rounds of the two clients' rates in the same round, which ran one shortly after
    /// the other: on a shared machine a burst of load slows both, where the ratio of two fastest rounds would set
    /// one client's luckiest moment against the other's.
    static func ratios(_ results: [BenchResult]) -> [BenchRatio] {
        func row(_ client: String, _ size: String, _ concurrency: Int) -> BenchResult? {
            results.first { $0.client == client && $0.size == size && $0.concurrency == concurrency }
        }
        func ratio(_ numerator: BenchResult, _ denominator: BenchResult) -> Double {
            let paired = zip(numerator.roundRPS, denominator.roundRPS).map { $0 / $1 }.sorted()
            guard !paired.isEmpty, numerator.roundRPS.count == denominator.roundRPS.count else {
                return numerator.rps / denominator.rps
            }
            let middle = paired.count / 2
            return paired.count % 2 == 1 ? paired[middle] : (paired[middle - 1] + paired[middle]) / 2
        }
        var ratios: [BenchRatio] = []
        let concurrencies = Array(Set(results.map(\.concurrency))).sorted()
        for size in ["small", "big"] {
            for concurrency in concurrencies {
                // The transport without the client layer, for what each costs; no target.
                if let transport = row("errand-transport", size, concurrency),
                    let raw = row("raw-libcurl", size, concurrency)
                {
                    ratios.append(BenchRatio(
                        name: "errand-transport / raw-libcurl", size: size, concurrency: concurrency,
                        value: ratio(transport, raw), target: nil))
                }
                guard let curl = row("errand-curl", size, concurrency) else { continue }
                func add(_ client: String, _ name: String, target: Double?) {
                    guard let other = row(client, size, concurrency) else { return }
                    ratios.append(BenchRatio(
                        name: name, size: size, concurrency: concurrency, value: ratio(curl, other), target: target))
                }
                func addOver(_ client: String, _ name: String, target: Double?) {
                    guard let other = row(client, size, concurrency) else { return }
                    ratios.append(BenchRatio(
                        name: name, size: size, concurrency: concurrency, value: ratio(other, curl), target: target))
                }
                add("errand-urlsession", "errand-curl / errand-urlsession",
                    target: size == "small" && concurrency == 16 ? 10 : nil)
                add("raw-libcurl", "errand-curl / raw-libcurl",
                    target: concurrency == 1 || concurrency == 16 ? 0.75 : nil)
                addOver("errand-curl-resilient", "errand-curl-resilient / errand-curl",
                    target: size == "small" && concurrency == 16 ? 0.95 : nil)
                addOver("errand-cache-memory", "errand-cache-memory / errand-curl (network)",
                    target: size == "small" ? 20 : nil)
                addOver("errand-cache-disk", "errand-cache-disk / errand-curl (network)",
                    target: size == "small" ? 3 : nil)
            }
        }
        return ratios
    }

    private static func format(_ value: Double, _ decimals: Int) -> String {
        String(format: "%.\(decimals)f", value)
    }
}
