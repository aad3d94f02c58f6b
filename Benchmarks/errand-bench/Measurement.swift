import Foundation

#if os(Linux)
private let selfUsage = RUSAGE_SELF.rawValue
#else
private let selfUsage = RUSAGE_SELF
#endif

/// Wall time, CPU time and peak memory of one measured stretch of work.
struct Measurement: Sendable {
    let seconds: Double
    let cpuSeconds: Double
    let peakRSSMegabytes: Double
    /// The median time of one request, where the client measured it.
    var p50Seconds: Double?

    /// Measures `work`: wall clock, this process's user + system CPU, and its peak resident memory while it ran.
    static func of(_ work: () async throws -> Void) async rethrows -> Measurement {
        let stopwatch = Stopwatch()
        try await work()
        return stopwatch.stop()
    }

    /// Measures blocking `work` the same way.
    static func ofBlocking(_ work: () throws -> Void) rethrows -> Measurement {
        let stopwatch = Stopwatch()
        try work()
        return stopwatch.stop()
    }

    private struct Stopwatch {
        let cpuBefore: Double
        let started: ContinuousClock.Instant

        init() {
            resetPeakMemory()
            cpuBefore = processCPUSeconds()
            started = .now
        }

        func stop() -> Measurement {
            let elapsed = ContinuousClock.now - started
            let seconds = Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18
            return Measurement(
                seconds: seconds, cpuSeconds: processCPUSeconds() - cpuBefore, peakRSSMegabytes: peakMemoryMegabytes())
        }
    }

    private static func processCPUSeconds() -> Double {
        var usage = rusage()
        getrusage(selfUsage, &usage)
        func seconds(_ time: timeval) -> Double { Double(time.tv_sec) + Double(time.tv_usec) / 1e6 }
        return seconds(usage.ru_utime) + seconds(usage.ru_stime)
    }

    /// Resets Linux's high-water mark of resident memory (VmHWM), so each run reports its own peak.
    private static func resetPeakMemory() {
        #if os(Linux)
        try? Data("5".utf8).write(to: URL(fileURLWithPath: "/proc/self/clear_refs"))
        #endif
    }

    /// The peak resident memory: VmHWM on Linux (since the last reset), the lifetime maximum elsewhere.
    private static func peakMemoryMegabytes() -> Double {
        #if os(Linux)
        if let status = try? String(contentsOfFile: "/proc/self/status", encoding: .utf8),
            let line = status.split(separator: "\n").first(where: { $0.hasPrefix("VmHWM:") }),
            let kilobytes = line.split(separator: " ").dropFirst().first.flatMap({ Double($0) })
        {
            return kilobytes / 1024
        }
        #endif
        var usage = rusage()
        getrusage(selfUsage, &usage)
        #if canImport(Darwin)
        return Double(usage.ru_maxrss) / 1_048_576
        #else
        return Double(usage.ru_maxrss) / 1024
        #endif
    }
}
