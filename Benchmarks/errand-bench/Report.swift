import Foundation

/// One row of the results.
struct BenchResult: Sendable, Encodable {
    let client: String
    let scheme: String
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
    /// The HTTP version of the responses (`1.1`, `2`), where the client reported it.
    let httpVersion: String?
    /// Allocations per request (malloc, calloc, realloc and the aligned kinds, process-wide), when counted.
    let allocationsPerRequest: Double?
    /// Jobs enqueued on Swift's global executor per request (a task resumed or started on a pool thread), when
    /// counted.
    let jobsPerRequest: Double?
    /// Wake-ups per request (a caller waking a sleeping curl loop: `eventfd_write` or `curl_multi_wakeup`), when counted.
    let wakeupsPerRequest: Double?
    /// The rate of every round, in the order they ran.
    private(set) var roundRPS: [Double] = []
    /// The client's CPU time per request in every round, in microseconds.
    private(set) var roundCPU: [Double] = []
    /// The connections nginx accepted during every round (its warm-up included), where nginx reports them.
    private(set) var roundConnections: [Int] = []

    enum CodingKeys: String, CodingKey {
        case client, scheme, size, concurrency, requests, seconds, rps
        case cpuSeconds = "cpu_seconds"
        case peakRSSMB = "peak_rss_mb"
        case machineCPUSeconds = "machine_cpu_seconds"
        case p50Milliseconds = "p50_ms"
        case httpVersion = "http_version"
        case allocationsPerRequest = "allocations_per_request"
        case jobsPerRequest = "jobs_per_request"
        case wakeupsPerRequest = "wakeups_per_request"
        case roundRPS = "round_rps"
        case roundCPU = "round_cpu_us_per_request"
        case roundConnections = "round_connections"
    }

    /// The client's CPU time per request in this round, in microseconds.
    var cpuPerRequestMicroseconds: Double { cpuSeconds * 1e6 / Double(requests) }

    /// This result with the rates, CPU costs and connections of every round.
    func with(roundRPS: [Double], roundCPU: [Double], roundConnections: [Int]) -> BenchResult {
        var copy = self
        copy.roundRPS = roundRPS
        copy.roundCPU = roundCPU
        copy.roundConnections = roundConnections
        return copy
    }

    init(client: String, workload: Workload, measurement: Measurement) {
        self.client = client
        scheme = workload.scheme.rawValue
        size = workload.size.rawValue
        concurrency = workload.concurrency
        requests = workload.requests
        seconds = measurement.seconds
        rps = Double(workload.requests) / measurement.seconds
        cpuSeconds = measurement.cpuSeconds
        peakRSSMB = measurement.peakRSSMegabytes
        machineCPUSeconds = measurement.machineCPUSeconds
        p50Milliseconds = measurement.p50Seconds.map { $0 * 1000 }
        httpVersion = measurement.httpVersion
        let requests = Double(workload.requests)
        allocationsPerRequest = measurement.counted.map { Double($0.allocations) / requests }
        jobsPerRequest = measurement.counted.map { Double($0.enqueues) / requests }
        wakeupsPerRequest = measurement.counted.map { Double($0.wakeups) / requests }
    }
}

/// A ratio of two clients (or two points of one client) in the same run, with the target it is held to, if any.
struct BenchRatio: Sendable, Encodable {
    /// Whether a larger or a smaller value is better.
    enum Bound: String, Sendable, Encodable {
        case atLeast = "at_least"
        case atMost = "at_most"
    }

    let name: String
    let scheme: String
    let size: String
    let concurrency: Int
    /// The median over paired rounds.
    let value: Double
    /// The smallest and largest paired round.
    let low: Double
    let high: Double
    /// The limit the value is held to; `nil` for ratios shown for information.
    let target: Double?
    let bound: Bound

    var passes: Bool? {
        target.map { bound == .atLeast ? value >= $0 : value <= $0 }
    }

    enum CodingKeys: String, CodingKey { case name, scheme, size, concurrency, value, low, high, target, bound, passes }

    func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(name, forKey: .name)
        try container.encode(scheme, forKey: .scheme)
        try container.encode(size, forKey: .size)
        try container.encode(concurrency, forKey: .concurrency)
        try container.encode(value, forKey: .value)
        try container.encode(low, forKey: .low)
        try container.encode(high, forKey: .high)
        try container.encodeIfPresent(target, forKey: .target)
        if target != nil { try container.encode(bound, forKey: .bound) }
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
            "| client | scheme | HTTP | size | C | requests | req/s | p50 ms | CPU µs/req | machine CPU µs/req "
                + "| allocations/req | jobs/req | loop wake-ups/req | peak RSS MB | connections per round (most) |",
            "| --- | --- | --- | --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |",
        ]
        for result in results {
            let machinePerRequest =
                result.machineCPUSeconds.map { format($0 * 1e6 / Double(result.requests), 0) } ?? ""
            lines.append(
                "| \(result.client) | \(result.scheme) | \(result.httpVersion ?? "") | \(result.size) | "
                    + "\(result.concurrency) | \(result.requests) | \(format(result.rps, 0)) | "
                    + "\(result.p50Milliseconds.map { format($0, 3) } ?? "") | "
                    + "\(format(result.cpuPerRequestMicroseconds, 0)) | \(machinePerRequest) | "
                    + "\(result.allocationsPerRequest.map { format($0, 1) } ?? "") | "
                    + "\(result.jobsPerRequest.map { format($0, 2) } ?? "") | "
                    + "\(result.wakeupsPerRequest.map { format($0, 2) } ?? "") | "
                    + "\(format(result.peakRSSMB, 1)) | \(result.roundConnections.max().map(String.init) ?? "") |")
        }
        let ratios = self.ratios(results)
        guard !ratios.isEmpty else { return lines.joined(separator: "\n") }
        lines.append("")
        lines.append(
            "| ratio (median of paired rounds) | scheme | size | C | value | rounds' range | target | result |")
        lines.append("| --- | --- | --- | ---: | ---: | ---: | ---: | --- |")
        for ratio in ratios {
            let target =
                ratio.target.map { "\(ratio.bound == .atLeast ? "≥" : "≤") \(format($0, $0 < 10 ? 2 : 0))×" } ?? ""
            let verdict = ratio.passes.map { $0 ? "PASS" : "FAIL" } ?? ""
            lines.append(
                "| \(ratio.name) | \(ratio.scheme) | \(ratio.size) | \(ratio.concurrency) | \(times(ratio.value)) | "
                    + "\(times(ratio.low))–\(times(ratio.high)) | \(target) | \(verdict) |")
        }
        let held = ratios.filter { $0.target != nil }
        let failed = held.filter { $0.passes == false }
        lines.append("")
        lines.append(
            "Targets: \(held.count - failed.count) of \(held.count) PASS"
                + (failed.isEmpty
                    ? ""
                    : "; FAIL: "
                        + failed.map { "\($0.name) \($0.scheme) \($0.size) C=\($0.concurrency)" }.joined(
                            separator: ", ")))
        return lines.joined(separator: "\n")
    }

    /// The ratios the targets are stated in, for the rows present; ratios without a target are shown for context.
    ///
    /// A ratio of two clients is the median over rounds of their values in the same round, which ran one shortly
    /// after the other: on a shared machine a burst of load slows both, where the ratio of two fastest rounds would
    /// set one client's luckiest moment against the other's. The range is the smallest and largest round's ratio.
    static func ratios(_ results: [BenchResult]) -> [BenchRatio] {
        var ratios: [BenchRatio] = []
        let points = Set(results.map { Point(scheme: $0.scheme, size: $0.size, concurrency: $0.concurrency) })
        for point in points.sorted() {
            func row(_ client: String) -> BenchResult? {
                results.first {
                    $0.client == client && $0.scheme == point.scheme && $0.size == point.size
                        && $0.concurrency == point.concurrency
                }
            }
            func add(_ name: String, _ values: [Double], target: Double? = nil, bound: BenchRatio.Bound = .atLeast) {
                guard let summary = summarize(values) else { return }
                ratios.append(
                    BenchRatio(
                        name: name, scheme: point.scheme, size: point.size, concurrency: point.concurrency,
                        value: summary.median, low: summary.low, high: summary.high, target: target, bound: bound))
            }
            let small = point.size == "small"
            if let raw = row("raw-libcurl") {
                let compared = [
                    ("errand-curl", true), ("errand-curl-resilient", false), ("errand-transport", false),
                    ("errand-curl-on-loop", false), ("errand-curl-send-on-loop", false), ("libcurl-socket-loop", false),
                ]
                for (client, held) in compared {
                    guard let errand = row(client) else { continue }
                    add(
                        "\(client) / raw-libcurl (req/s)", paired(errand.roundRPS, raw.roundRPS),
                        target: held ? (point.concurrency == 1 ? 0.5 : 0.8) : nil)
                    add(
                        "\(client) / raw-libcurl (CPU/req)", paired(errand.roundCPU, raw.roundCPU),
                        target: held ? 1.5 : nil, bound: .atMost)
                }
            }
            // The connections a round may open: one per slot in use (8 per host over HTTP/1.1, one multiplexed
            // connection over HTTP/2), and one more for the round's status read.
            let allowed = Double((point.scheme == "https" ? 1 : min(point.concurrency, 8)) + 1)
            for client in ["errand-curl", "errand-curl-resilient", "raw-libcurl"] {
                guard let counted = row(client)?.roundConnections, !counted.isEmpty else { continue }
                add(
                    "\(client) connections per round / allowed", counted.map { Double($0) / allowed },
                    target: client == "errand-curl" ? 1 : nil, bound: .atMost)
            }
            guard let curl = row("errand-curl") else { continue }
            if let resilient = row("errand-curl-resilient") {
                add(
                    "errand-curl-resilient / errand-curl (req/s)", paired(resilient.roundRPS, curl.roundRPS),
                    target: 0.95)
            }
            if point.concurrency == 64,
                let sixteen = results.first(where: {
                    $0.client == "errand-curl" && $0.scheme == point.scheme && $0.size == point.size
                        && $0.concurrency == 16
                })
            {
                add("errand-curl C=64 / C=16 (req/s)", paired(curl.roundRPS, sixteen.roundRPS), target: 0.95)
            }
            if let session = row("errand-urlsession") {
                add(
                    "errand-curl / errand-urlsession (req/s)", paired(curl.roundRPS, session.roundRPS),
                    target: small && point.concurrency == 16 ? 10 : nil)
            }
            if let memory = row("errand-cache-memory") {
                add("errand-cache-memory / errand-curl (req/s)", paired(memory.roundRPS, curl.roundRPS), target: 20)
            }
            if let disk = row("errand-cache-disk") {
                add("errand-cache-disk / errand-curl (req/s)", paired(disk.roundRPS, curl.roundRPS), target: 3)
            }
        }
        return ratios
    }

    /// A point of the benchmark, ordered as the runs are: http first, small first, by concurrency.
    private struct Point: Hashable, Comparable {
        let scheme: String
        let size: String
        let concurrency: Int

        static func < (lhs: Point, rhs: Point) -> Bool {
            func key(_ point: Point) -> (Int, Int, Int) {
                (point.scheme == "http" ? 0 : 1, point.size == "small" ? 0 : 1, point.concurrency)
            }
            return key(lhs) < key(rhs)
        }
    }

    /// Round-by-round ratios of two series (the rounds of the same number ran moments apart).
    private static func paired(_ numerators: [Double], _ denominators: [Double]) -> [Double] {
        zip(numerators, denominators).compactMap { $1 > 0 ? $0 / $1 : nil }
    }

    private static func summarize(_ values: [Double]) -> (median: Double, low: Double, high: Double)? {
        let sorted = values.sorted()
        guard let low = sorted.first, let high = sorted.last else { return nil }
        let middle = sorted.count / 2
        let median = sorted.count % 2 == 1 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2
        return (median, low, high)
    }

    private static func times(_ value: Double) -> String {
        format(value, value >= 10 ? 0 : value >= 3 ? 1 : 2) + "×"
    }

    private static func format(_ value: Double, _ decimals: Int) -> String {
        String(format: "%.\(decimals)f", value)
    }
}
