import Errand
import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
#if canImport(Glibc)
import Glibc
#endif

// errand-memory: how resident memory evolves while a client fetches mixed large bodies under load, round after round.
//
//   errand-memory --url http://127.0.0.1:PORT [--rounds 3] [--requests 120] [--concurrency 16]
//                 [--clients errand-urlsession,raw-urlsession,errand-curl]
//
// The server must serve `/large.bin` (at least 32 MiB) with byte ranges: nginx as `scripts/bench --memory` starts it.
// Request i asks for the first 256 KiB, 1, 4, 16 or 32 MiB of it (in turn), `concurrency` at a time. Each client runs
// in a child process of its own (so one client's heap never shows in another's figures), once with glibc's default
// malloc arenas and once with `MALLOC_ARENA_MAX=2`. After each round the child reports its resident memory, then the
// same after `malloc_trim(0)` has handed free heap pages back: memory that a trim gives back was free, kept by the
// allocator, not held by the client.

let sizes = [256 << 10, 1 << 20, 4 << 20, 16 << 20, 32 << 20]

struct Options {
    var url: URL?
    var rounds = 3
    var requests = 120
    var concurrency = 16
    var clients = ["errand-urlsession", "raw-urlsession"] + (curlAvailable ? ["errand-curl"] : [])
    var child: String?

    static let usage = """
        usage: errand-memory --url http://127.0.0.1:PORT [--rounds N] [--requests N] [--concurrency N]
                             [--clients errand-urlsession,raw-urlsession,errand-curl]
        """

    init(_ arguments: [String]) throws {
        var remaining = arguments[...]
        func value(_ flag: String) throws -> String {
            guard let value = remaining.popFirst() else { throw ProbeError("\(flag) needs a value\n\(Self.usage)") }
            return value
        }
        func count(_ flag: String) throws -> Int {
            let text = try value(flag)
            guard let number = Int(text), (1...100_000).contains(number) else {
                throw ProbeError("\(flag) needs a number from 1 to 100000, not \(text)")
            }
            return number
        }
        while let flag = remaining.popFirst() {
            switch flag {
            case "--url":
                let text = try value(flag)
                guard let url = URL(string: text), url.scheme == "http" else {
                    throw ProbeError("--url needs an http URL, not \(text)")
                }
                self.url = url
            case "--rounds": rounds = try count(flag)
            case "--requests": requests = try count(flag)
            case "--concurrency": concurrency = try count(flag)
            case "--clients":
                let names = try value(flag).split(separator: ",").map(String.init)
                if let unknown = names.first(where: { !Self.known.contains($0) }) {
                    throw ProbeError("unknown client \(unknown); known: \(Self.known.joined(separator: ", "))")
                }
                clients = names
            case "--child": child = try value(flag)
            case "-h", "--help": throw ProbeError(Self.usage)
            default: throw ProbeError("unknown option \(flag)\n\(Self.usage)")
            }
        }
        if url == nil, let text = ProcessInfo.processInfo.environment["ERRAND_NGINX_HTTP_URL"] {
            url = URL(string: text)
        }
        guard url != nil else {
            throw ProbeError("no server: pass --url or run `scripts/bench --memory`\n\(Self.usage)")
        }
    }

    static let known = ["errand-urlsession", "raw-urlsession"] + (curlAvailable ? ["errand-curl"] : [])
}

#if canImport(CCurl)
let curlAvailable = true
#else
let curlAvailable = false
#endif

struct ProbeError: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}

/// One round's figures, as the child prints them (one JSON object per line).
struct RoundReport: Codable {
    var round: Int
    var seconds: Double
    var cpuSeconds: Double
    var rssMB: Double
    var rssAfterTrimMB: Double
    var peakMB: Double
}

// MARK: - The child: one client, all rounds

/// Fetches `bytes` from the start of `/large.bin` and returns how many bytes arrived.
typealias Fetch = @Sendable (_ bytes: Int) async throws -> Int

func makeFetch(_ name: String, base: URL) throws -> Fetch {
    let file = base.appendingPathComponent("large.bin")
    @Sendable func range(_ bytes: Int) -> String { "bytes=0-\(bytes - 1)" }
    switch name {
    case "errand-urlsession", "errand-curl":
        let transport: any Transport
        #if canImport(CCurl)
        transport = name == "errand-curl" ? CurlTransport() : URLSessionTransport()
        #else
        transport = URLSessionTransport()
        #endif
        let client = APIClient(
            configuration: ClientConfiguration(
                baseURL: base, headers: ["Accept-Encoding": "identity"], transport: transport,
                maxResponseBodySize: 64 << 20))
        return { bytes in
            var request = Request<Data>(path: "large.bin")
            request.headers["Range"] = range(bytes)
            return try await client.send(request).value.count
        }
    case "raw-urlsession":
        // Foundation alone: the same requests through a plain session, no Errand code on the path.
        let configuration = URLSessionConfiguration.ephemeral
        configuration.urlCache = nil
        let session = URLSession(configuration: configuration)
        return { bytes in
            var request = URLRequest(url: file)
            request.setValue(range(bytes), forHTTPHeaderField: "Range")
            request.setValue("identity", forHTTPHeaderField: "Accept-Encoding")
            let (data, response) = try await session.data(for: request)
            guard (response as? HTTPURLResponse)?.statusCode == 206 else {
                throw ProbeError("expected 206 from \(file)")
            }
            return data.count
        }
    default:
        throw ProbeError("unknown client \(name)")
    }
}

func runChild(_ name: String, options: Options) async throws {
    let fetch = try makeFetch(name, base: options.url!)
    for round in 1...options.rounds {
        let started = ContinuousClock.now
        let cpuBefore = cpuSeconds()
        try await withThrowingTaskGroup(of: Void.self) { group in
            var next = 0
            func add() {
                let index = next
                next += 1
                group.addTask {
                    let bytes = sizes[index % sizes.count]
                    let received = try await fetch(bytes)
                    guard received == bytes else {
                        throw ProbeError("request \(index): \(received) bytes, not \(bytes)")
                    }
                }
            }
            for _ in 0..<min(options.concurrency, options.requests) { add() }
            while try await group.next() != nil {
                if next < options.requests { add() }
            }
        }
        let elapsed = ContinuousClock.now - started
        let rss = residentMegabytes("VmRSS")
        trimHeap()
        let report = RoundReport(
            round: round, seconds: Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18,
            cpuSeconds: cpuSeconds() - cpuBefore, rssMB: rss, rssAfterTrimMB: residentMegabytes("VmRSS"),
            peakMB: residentMegabytes("VmHWM"))
        let line = try JSONEncoder().encode(report)
        FileHandle.standardOutput.write(line + Data("\n".utf8))
    }
}

func residentMegabytes(_ field: String) -> Double {
    guard let status = try? String(contentsOfFile: "/proc/self/status", encoding: .utf8),
        let line = status.split(separator: "\n").first(where: { $0.hasPrefix(field + ":") }),
        let kilobytes = line.split(separator: " ").dropFirst().first.flatMap({ Double($0) })
    else { return 0 }
    return kilobytes / 1024
}

/// Calls glibc's `malloc_trim(0)`, which `<malloc.h>` declares and the Glibc module does not export; looked up at run
/// time, and nothing where it does not exist.
func trimHeap() {
    typealias Trim = @convention(c) (Int) -> Int32
    guard let symbol = dlsym(UnsafeMutableRawPointer(bitPattern: 0), "malloc_trim") else { return }
    _ = unsafeBitCast(symbol, to: Trim.self)(0)
}

func cpuSeconds() -> Double {
    var usage = rusage()
    getrusage(RUSAGE_SELF.rawValue, &usage)
    func seconds(_ time: timeval) -> Double { Double(time.tv_sec) + Double(time.tv_usec) / 1e6 }
    return seconds(usage.ru_utime) + seconds(usage.ru_stime)
}

// MARK: - The parent: every client in its own process, side by side

func runParent(_ options: Options) throws {
    let executable = URL(fileURLWithPath: CommandLine.arguments[0]).path
    var rows: [(client: String, arenas: String, reports: [RoundReport])] = []
    for client in options.clients {
        for arenas in ["default", "2"] {
            let process = Process()
            process.executableURL = URL(fileURLWithPath: executable)
            process.arguments = [
                "--child", client, "--url", options.url!.absoluteString, "--rounds", String(options.rounds),
                "--requests", String(options.requests), "--concurrency", String(options.concurrency),
            ]
            var environment = ProcessInfo.processInfo.environment
            if arenas != "default" { environment["MALLOC_ARENA_MAX"] = arenas }
            process.environment = environment
            let output = Pipe()
            process.standardOutput = output
            try process.run()
            let data = output.fileHandleForReading.readDataToEndOfFile()
            process.waitUntilExit()
            guard process.terminationStatus == 0 else {
                throw ProbeError("\(client) (arenas \(arenas)) exited with status \(process.terminationStatus)")
            }
            let reports = try data.split(separator: UInt8(ascii: "\n")).map {
                try JSONDecoder().decode(RoundReport.self, from: Data($0))
            }
            rows.append((client, arenas, reports))
        }
    }
    let megabytes = options.requests / sizes.count * sizes.reduce(0, +) >> 20
    print(
        "errand-memory: \(options.rounds) rounds of \(options.requests) requests (256 KiB to 32 MiB each, about "
            + "\(megabytes) MiB a round), \(options.concurrency) at a time; MB resident after each round / after malloc_trim"
    )
    print("")
    var header = "| client | malloc arenas |"
    var rule = "| --- | --- |"
    for round in 1...options.rounds {
        header += " round \(round) |"
        rule += " ---: |"
    }
    print(header + " peak | CPU s |")
    print(rule + " ---: | ---: |")
    for row in rows {
        var line = "| \(row.client) | \(row.arenas) |"
        for report in row.reports {
            line += String(format: " %.0f / %.0f |", report.rssMB, report.rssAfterTrimMB)
        }
        let cpu = row.reports.map(\.cpuSeconds).reduce(0, +)
        line += String(format: " %.0f | %.1f |", row.reports.map(\.peakMB).max() ?? 0, cpu)
        print(line)
    }
}

do {
    let options = try Options(Array(CommandLine.arguments.dropFirst()))
    if let child = options.child {
        try await runChild(child, options: options)
    } else {
        try runParent(options)
    }
} catch {
    FileHandle.standardError.write(Data("errand-memory: \(error)\n".utf8))
    exit(1)
}
