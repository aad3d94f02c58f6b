#if canImport(CCurl)
import CCurl
#endif
import Dispatch
import Foundation
import Synchronization

/// `errand-bench hand-offs [--trips N] [--rounds N]`: what one round trip between threads costs, with nothing else
/// done — the floor under a request whose caller runs on Swift's pool and whose I/O runs on a thread of its own.
///
/// - `threads`: two plain threads passing a turn back and forth through two semaphores (two kernel wake-ups a trip).
/// - `task and thread`: a task on Swift's global executor awaits a continuation that a plain thread resumes, then
///   wakes that thread for the next trip — the shape of one `CurlTransport.send` (caller → loop, loop → caller).
/// - `task on the thread's executor`: the same trip with the task preferring a ``TaskExecutor`` whose jobs run on the
///   plain thread, so both sides share it — the shape of `errand-curl-on-loop`.
///
/// - `task and curl_multi_poll, curl_multi_wakeup` and `…, eventfd` (Linux): the plain thread sleeps in
///   `curl_multi_poll` on an empty multi handle, as `CurlLoop` does between transfers, and the task wakes it with
///   libcurl's own `curl_multi_wakeup` (a socket pair: a send, and two receives to drain it) or with an `eventfd` polled
///   beside it (a write and a read): the two ways the loop can be woken, side by side.
///
/// Each line prints wall µs and CPU µs (user + system, whole process) per trip, the fastest of the rounds.
enum HandOffBenchmark {
    static func run(_ arguments: [String]) async throws {
        var trips = 100_000
        var rounds = 5
        var remaining = arguments[...]
        while let argument = remaining.popFirst() {
            switch argument {
            case "--trips": trips = Int(remaining.popFirst() ?? "") ?? trips
            case "--rounds": rounds = Int(remaining.popFirst() ?? "") ?? rounds
            default: throw BenchError("errand-bench hand-offs: unknown argument \(argument)")
            }
        }
        print("| hand-off | trips | wall µs/trip | CPU µs/trip |")
        print("| --- | ---: | ---: | ---: |")
        var variants: [(String, @Sendable (Int) async -> Void)] = [
            ("threads", threadsPingPong), ("task and thread", taskAndThread),
            ("task on the thread's executor", taskOnThreadExecutor),
        ]
        #if canImport(CCurl) && os(Linux)
        variants += [
            ("task and curl_multi_poll, curl_multi_wakeup", { @Sendable in await taskAndPoll($0, eventfd: false) }),
            ("task and curl_multi_poll, eventfd", { @Sendable in await taskAndPoll($0, eventfd: true) }),
        ]
        #endif
        var best: [String: Measurement] = [:]
        for _ in 1...rounds {
            for (name, variant) in variants {
                let measurement = await Task.detached { [trips] in
                    await Measurement.of { await variant(trips) }
                }.value
                if best[name].map({ measurement.seconds < $0.seconds }) ?? true { best[name] = measurement }
            }
        }
        for (name, _) in variants {
            guard let measurement = best[name] else { continue }
            let wall = measurement.seconds / Double(trips) * 1e6
            let cpu = measurement.cpuSeconds / Double(trips) * 1e6
            print("| \(name) | \(trips) | \(String(format: "%.2f", wall)) | \(String(format: "%.2f", cpu)) |")
        }
    }

    private static func threadsPingPong(_ trips: Int) async {
        let ping = DispatchSemaphore(value: 0)
        let pong = DispatchSemaphore(value: 0)
        await withCheckedContinuation { (done: CheckedContinuation<Void, Never>) in
            Thread {
                for _ in 0..<trips {
                    ping.wait()
                    pong.signal()
                }
            }.start()
            Thread {
                for _ in 0..<trips {
                    ping.signal()
                    pong.wait()
                }
                done.resume()
            }.start()
        }
    }

    /// The plain thread waits for a continuation to resume, resumes it, and waits for the next.
    private final class Resumer: @unchecked Sendable {
        private let ready = DispatchSemaphore(value: 0)
        private let slot = Mutex<CheckedContinuation<Void, Never>?>(nil)

        init(trips: Int) {
            Thread { [self] in
                for _ in 0..<trips {
                    ready.wait()
                    slot.withLock { $0.take() }?.resume()
                }
            }.start()
        }

        func trip() async {
            await withCheckedContinuation { continuation in
                slot.withLock { $0 = continuation }
                ready.signal()
            }
        }
    }

    private static func taskAndThread(_ trips: Int) async {
        let resumer = Resumer(trips: trips)
        for _ in 0..<trips { await resumer.trip() }
    }

    #if canImport(CCurl) && os(Linux)
    /// A plain thread that sleeps in `curl_multi_poll` until woken, then resumes the continuation left for it.
    private final class PollingResumer: @unchecked Sendable {
        private let multi: UnsafeMutableRawPointer
        private let wakeDescriptor: Int32
        private let slot = Mutex<CheckedContinuation<Void, Never>?>(nil)
        private let finished = DispatchSemaphore(value: 0)

        init(trips: Int, eventfd usesEventfd: Bool) {
            curl_global_init(Int(CURL_GLOBAL_ALL))
            multi = curl_multi_init()
            wakeDescriptor = usesEventfd ? eventfd(0, Int32(EFD_CLOEXEC | EFD_NONBLOCK)) : -1
            Thread { [self] in
                var resumed = 0
                while resumed < trips {
                    if wakeDescriptor >= 0 {
                        var wakeUp = curl_waitfd(fd: wakeDescriptor, events: Int16(CURL_WAIT_POLLIN), revents: 0)
                        curl_multi_poll(multi, &wakeUp, 1, 10_000, nil)
                        if wakeUp.revents != 0 {
                            var count: eventfd_t = 0
                            _ = eventfd_read(wakeDescriptor, &count)
                        }
                    } else {
                        curl_multi_poll(multi, nil, 0, 10_000, nil)
                    }
                    if let continuation = slot.withLock({ $0.take() }) {
                        continuation.resume()
                        resumed += 1
                    }
                }
                finished.signal()
            }.start()
        }

        func trip() async {
            await withCheckedContinuation { continuation in
                slot.withLock { $0 = continuation }
                if wakeDescriptor >= 0 { _ = eventfd_write(wakeDescriptor, 1) } else { curl_multi_wakeup(multi) }
            }
        }

        func close() {
            finished.wait()
            curl_multi_cleanup(multi)
            if wakeDescriptor >= 0 { Glibc.close(wakeDescriptor) }
        }
    }

    private static func taskAndPoll(_ trips: Int, eventfd: Bool) async {
        let resumer = PollingResumer(trips: trips, eventfd: eventfd)
        for _ in 0..<trips { await resumer.trip() }
        resumer.close()
    }
    #endif

    /// A task executor with one thread of its own, which runs its jobs one after another.
    private final class ThreadExecutor: TaskExecutor, @unchecked Sendable {
        private let jobs = Mutex<[UnownedJob]>([])
        private let available = DispatchSemaphore(value: 0)

        init() {
            Thread { [self] in
                while true {
                    available.wait()
                    guard let job = jobs.withLock({ $0.isEmpty ? nil : $0.removeFirst() }) else { return }
                    job.runSynchronously(on: asUnownedTaskExecutor())
                }
            }.start()
        }

        func enqueue(_ job: UnownedJob) {
            jobs.withLock { $0.append(job) }
            available.signal()
        }

        /// Ends the thread once the jobs before it have run.
        func stop() { available.signal() }
    }

    /// On the executor's thread: the task suspends, is resumed at once, and its next job runs on the same thread.
    private static func taskOnThreadExecutor(_ trips: Int) async {
        let executor = ThreadExecutor()
        await withTaskExecutorPreference(executor) {
            for _ in 0..<trips {
                await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
                    continuation.resume()
                }
            }
        }
        executor.stop()
    }
}
