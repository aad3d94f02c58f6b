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
    /// CPU time every process on the machine used meanwhile (Linux, from `/proc/stat`; `nil` elsewhere): the client's
    /// share plus the server's and the kernel's network work, which on a machine whose processors are all busy is
    /// what a request really costs.
    let machineCPUSeconds: Double?
    /// The median time of one request, where the client measured it.
    var p50Seconds: Double?
    /// The HTTP version the responses came with (`1.1`, `2`), where the client reported it.
    var httpVersion: String?
    /// Allocations, global-executor jobs and curl loop wake-ups meanwhile, process-wide, when the counting library is
    /// preloaded (``Counters``).
    let counted: Counters?

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
        let machineBefore: Double?
        let started: ContinuousClock.Instant
        let countedBefore: Counters?

        init() {
            resetPeakMemory()
            cpuBefore = processCPUSeconds()
            machineBefore = machineCPUSeconds()
            countedBefore = Counters.now()
            started = .now
        }

        func stop() -> Measurement {
            let elapsed = ContinuousClock.now - started
            let counted = Counters.now().flatMap { after in countedBefore.map { after.since($0) } }
            let seconds = Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18
            let machine = machineCPUSeconds().flatMap { after in machineBefore.map { after - $0 } }
            return Measurement(
                seconds: seconds, cpuSeconds: processCPUSeconds() - cpuBefore, peakRSSMegabytes: peakMemoryMegabytes(),
                machineCPUSeconds: machine, counted: counted)
        }
    }

    private static func processCPUSeconds() -> Double {
        var usage = rusage()
        getrusage(selfUsage, &usage)
        func seconds(_ time: timeval) -> Double { Double(time.tv_sec) + Double(time.tv_usec) / 1e6 }
        return seconds(usage.ru_utime) + seconds(usage.ru_stime)
    }

    /// The busy time of all processors since boot, from the first line of `/proc/stat` (user, nice, system, irq and
    /// softirq ticks; idle, I/O wait and time the hypervisor gave to other machines left out); `nil` where there is no
    /// such file.
    private static func machineCPUSeconds() -> Double? {
        #if os(Linux)
        guard let text = try? String(contentsOfFile: "/proc/stat", encoding: .utf8),
            let line = text.split(separator: "\n").first, line.hasPrefix("cpu ")
        else { return nil }
        let ticks = line.split(separator: " ").dropFirst().compactMap { Double($0) }
        guard ticks.count >= 7 else { return nil }
        let busy = ticks[0] + ticks[1] + ticks[2] + ticks[5] + ticks[6]
        return busy / Double(sysconf(Int32(_SC_CLK_TCK)))
        #else
        return nil
        #endif
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
