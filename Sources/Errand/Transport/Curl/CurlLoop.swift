#if canImport(CCurl)
import CCurl
import Foundation
import Synchronization

/// The thread that drives one libcurl multi handle and owns every transfer handed to it.
///
/// Each pass runs the commands callers queued (start, cancel, resume a stream), `curl_multi_perform`, the transfers
/// libcurl reports done, and the timers Errand keeps itself (the total timeout while a transfer waits for a slot, the
/// idle timeout); then the thread sleeps in `curl_multi_poll` until a socket, a timer or a command needs it. It never
/// spins: a command queued while the loop sleeps wakes it once (``wake(_:)``), and one queued while it is busy costs no
/// system call, because the loop looks at its inbox before it sleeps.
///
/// What happens to a transfer is decided by its ``CurlTransferStateMachine``; this type carries out the actions the
/// machine returns (``perform(_:for:)``), so every path in and out of the multi handle is in one place.
///
/// `@unchecked Sendable` because everything mutable here except the inbox — the multi handle, the handle pool, the
/// admission queues, the tables of transfers — is used by the loop thread alone; other threads only append to the
/// inbox (a `Mutex`) and wake the loop (an `eventfd` write on Linux, `curl_multi_wakeup` elsewhere).
final class CurlLoop: @unchecked Sendable {
    enum Command {
        case start(CurlTransfer)
        case cancel(CurlTransfer)
        case resume(CurlTransfer)
        /// A transfer paused for its streamed body's next bytes may send again.
        case sendMore(CurlTransfer)
        /// A job of a task that prefers this loop as its executor (``CurlTransport/executor``).
        case run(UnownedJob)
        case shutdown
    }

    /// Large response-body buffers for reuse (released by whichever thread drops the last `Data`).
    let bodies = ResponseBodyPool()
    /// Transfers started and not yet finished, for tests and diagnostics; written by the loop thread only.
    let unfinished = Atomic<Int>(0)
    private let configuration: CurlTransport.Configuration
    private let multi: UnsafeMutableRawPointer?
    private struct Inbox {
        var commands: [Command] = []
        /// Whether the loop sleeps (or is about to) in `curl_multi_poll` without a wake-up pending.
        var isPolling = false
        /// Whether the loop has stopped: jobs then go to the global executor instead.
        var isStopped = false
    }

    private let inbox = Mutex(Inbox())
    #if os(Linux)
    /// What a caller writes to wake the sleeping loop, polled beside libcurl's sockets; -1 if the system had none to
    /// give, and then `curl_multi_wakeup` wakes it. One write and one read per wake-up, where libcurl's own socket
    /// pair costs a send and two receives (the second finding it empty). Open as long as the loop object lives, so a
    /// caller that saw the loop asleep just before it stopped never writes to a closed or reused descriptor.
    private let wakeDescriptor = eventfd(0, Int32(EFD_CLOEXEC | EFD_NONBLOCK))
    #endif
    /// The loop thread, set before it runs any command and never changed.
    private var thread: pthread_t?

    // The loop thread's own, so without dynamic exclusivity checks (see CurlTransfer's loop-confined state).
    private let pool: CurlEasyPool
    @exclusivity(unchecked) private var admission: AdmissionQueue<AdmissionLane<String>, CurlTransfer>
    @exclusivity(unchecked) private var running: [UnsafeMutableRawPointer: CurlTransfer] = [:]
    /// Streams whose head arrived during the last `curl_multi_perform`, for ``noteStreamHeads()``.
    @exclusivity(unchecked) private var streamHeads: [CurlTransfer] = []
    /// Transfers with a timer Errand keeps: a total timeout while waiting for a slot, an idle timeout while running.
    /// A transfer admitted at once without an idle timeout never enters it.
    @exclusivity(unchecked) private var timed: [ObjectIdentifier: CurlTransfer] = [:]
    /// When ``timed`` must be looked at next; `nil` when no timer runs. Activity only moves timers later, so looking
    /// early is harmless, and each look sets the next one: the transfers are not scanned on every pass.
    @exclusivity(unchecked) private var nextTimerCheck: ContinuousClock.Instant?

    init(configuration: CurlTransport.Configuration) {
        CurlGlobal.ensureInitialized()
        self.configuration = configuration
        pool = CurlEasyPool(limit: 256, configuration: configuration)
        admission = AdmissionQueue(perServer: configuration.maxConnectionsPerHost)
        multi = curl_multi_init()
        guard let multi else { return }
        _ = errand_curl_multi_setopt_long(multi, CURLMOPT_PIPELINING, errand_curl_pipe_multiplex)
        // Errand's admission keeps transfers within this limit (one budget for streams, one for the rest: see
        // AdmissionLane); libcurl's own stays as the guarantee.
        _ = errand_curl_multi_setopt_long(
            multi, CURLMOPT_MAX_HOST_CONNECTIONS, 2 * configuration.maxConnectionsPerHost)
        if let total = configuration.maxConnections {
            _ = errand_curl_multi_setopt_long(multi, CURLMOPT_MAX_TOTAL_CONNECTIONS, total)
        }
        _ = errand_curl_multi_setopt_long(multi, CURLMOPT_MAXCONNECTS, configuration.idleConnectionsKept)
        Thread { [self] in run() }.start()
    }

    #if os(Linux)
    deinit {
        if wakeDescriptor >= 0 { close(wakeDescriptor) }
    }
    #endif

    /// Queues a command for the loop, waking it when it sleeps.
    func submit(_ command: Command) {
        guard let multi else {
            refuse(command)
            return
        }
        let (accepted, sleeping) = inbox.withLock { inbox in
            guard !inbox.isStopped else { return (false, false) }
            inbox.commands.append(command)
            defer { inbox.isPolling = false }
            return (true, inbox.isPolling)
        }
        if !accepted { refuse(command) }
        if sleeping { wake(multi) }
    }

    /// Wakes the loop from ``sleep(_:milliseconds:)``.
    private func wake(_ multi: UnsafeMutableRawPointer) {
        #if os(Linux)
        if wakeDescriptor >= 0 {
            _ = eventfd_write(wakeDescriptor, 1)
            return
        }
        #endif
        curl_multi_wakeup(multi)
    }

    /// Sleeps until a socket or a timer of libcurl's needs the loop, a caller wakes it, or `milliseconds` pass.
    private func sleep(_ multi: UnsafeMutableRawPointer, milliseconds: Int32) {
        #if os(Linux)
        if wakeDescriptor >= 0 {
            var wakeUp = curl_waitfd(fd: wakeDescriptor, events: Int16(CURL_WAIT_POLLIN), revents: 0)
            curl_multi_poll(multi, &wakeUp, 1, milliseconds, nil)
            if wakeUp.revents != 0 {
                var count: eventfd_t = 0
                _ = eventfd_read(wakeDescriptor, &count)
            }
            return
        }
        #endif
        curl_multi_poll(multi, nil, 0, milliseconds, nil)
    }

    /// What becomes of a command no loop will run: a job runs on the global executor, a start fails.
    private func refuse(_ command: Command) {
        switch command {
        case .run(let job):
            globalConcurrentExecutor.enqueue(job)
        case .start(let transfer):
            transfer.failCaller(
                .transport(
                    TransportFailure(
                        kind: .other, url: transfer.request.url, underlying: "the transport's loop is not running")))
        case .cancel, .resume, .sendMore, .shutdown:
            break
        }
    }

    /// Whether the caller runs on the loop thread; meaningful only there (other threads may read it before it is set).
    var isLoopThread: Bool {
        thread.map { pthread_equal($0, pthread_self()) != 0 } ?? false
    }

    /// Stops the loop: running transfers fail as cancelled, connections close, the multi handle is freed.
    func shutdown() {
        submit(.shutdown)
    }

    // MARK: The loop thread

    private func run() {
        guard let multi else { return }
        errand_name_this_thread("errand.curl")
        thread = pthread_self()
        var pending: [Command] = []
        var stillRunning: Int32 = 0
        while true {
            inbox.withLock { inbox in
                inbox.isPolling = false
                swap(&inbox.commands, &pending)
            }
            var stopping = false
            for command in pending {
                switch command {
                case .start(let transfer): begin(transfer)
                case .cancel(let transfer): perform(transfer.machine.fail(.cancelled), for: transfer)
                case .resume(let transfer): perform(transfer.machine.readerCaughtUp(), for: transfer)
                case .sendMore(let transfer): resumeSending(transfer)
                case .run(let job): job.runSynchronously(on: asUnownedTaskExecutor())
                case .shutdown: stopping = true
                }
            }
            pending.removeAll(keepingCapacity: true)
            if stopping { break }
            curl_multi_perform(multi, &stillRunning)
            noteStreamHeads()
            collectFinished(in: multi)
            let timeout = checkTimers()
            let maySleep = inbox.withLock { inbox in
                guard inbox.commands.isEmpty else { return false }
                inbox.isPolling = true
                return true
            }
            if maySleep { sleep(multi, milliseconds: timeout) }
        }
        for transfer in Array(running.values) + Array(timed.values) {
            perform(transfer.machine.fail(.cancelled), for: transfer)
        }
        // Whatever was queued after the shutdown has no loop left: jobs move to the global executor, starts fail.
        let left = inbox.withLock { inbox in
            inbox.isStopped = true
            defer { inbox.commands.removeAll() }
            return inbox.commands
        }
        for command in left { refuse(command) }
        curl_multi_cleanup(multi)
        pool.drain()
    }

    private func begin(_ transfer: CurlTransfer) {
        unfinished.store(unfinished.load(ordering: .relaxed) + 1, ordering: .relaxed)
        perform(transfer.machine.start(), for: transfer)
    }

    /// Carries out what a transition of `transfer`'s machine asked for.
    private func perform(_ action: CurlTransferStateMachine.Action, for transfer: CurlTransfer) {
        switch action {
        case .none, .abort, .pause:
            // Aborting and pausing are answers to libcurl's callbacks, given there.
            return
        case .configure:
            configure(transfer)
        case .waitForSlot:
            waitForSlot(transfer)
        case .addToMulti:
            add(transfer)
        case .unpause:
            guard let easy = transfer.easy else { return }
            transfer.touch()
            scheduleIdleTimer(of: transfer)
            curl_easy_pause(easy.raw, errand_curl_pause_continue)
        case .deliverHead:
            transfer.deliverHead()
        case .succeed:
            noteMultiplexing(of: transfer)
            releaseSlot(of: transfer)
            forget(transfer)
            transfer.deliverResponse()
            recycleHandle(of: transfer, clean: true)
        case .fail(let failure, let place, let recipient):
            switch place {
            case .nowhere: break
            case .queue: _ = admission.withdraw(transfer, at: transfer.admissionLane)
            case .multi: detach(transfer)
            case .slot: break
            }
            if place == .multi || place == .slot { releaseSlot(of: transfer) }
            forget(transfer)
            switch recipient {
            case .caller: transfer.failCaller(failure)
            case .stream: transfer.finishStream(failure)
            }
            recycleHandle(of: transfer, clean: false)
        }
    }

    private func configure(_ transfer: CurlTransfer) {
        do {
            try transfer.configure(taking: pool.take())
        } catch {
            perform(transfer.machine.fail(error), for: transfer)
            return
        }
        perform(transfer.machine.configured(), for: transfer)
    }

    private func waitForSlot(_ transfer: CurlTransfer) {
        if admission.request(transfer, at: transfer.admissionLane) {
            transfer.slotHost = transfer.admissionLane
            perform(transfer.machine.admitted(), for: transfer)
        } else if let deadline = transfer.deadline {
            timed[ObjectIdentifier(transfer)] = transfer
            scheduleTimer(at: deadline)
        }
    }

    private func add(_ transfer: CurlTransfer) {
        guard let multi, let easy = transfer.easy else { return }
        guard transfer.applyTimeLeft(easy) else {
            perform(transfer.machine.fail(transfer.totalTimeoutFailure), for: transfer)
            return
        }
        if transfer.request.timeouts.idle != nil {
            transfer.touch()
            timed[ObjectIdentifier(transfer)] = transfer
            scheduleIdleTimer(of: transfer)
        }
        guard curl_multi_add_handle(multi, easy.raw) == CURLM_OK else {
            perform(
                transfer.machine.fail(
                    .transport(
                        TransportFailure(
                            kind: .other, url: transfer.request.url, underlying: "libcurl refused the transfer"))),
                for: transfer)
            return
        }
        running[easy.raw] = transfer
    }

    /// Lifts the pause of a transfer's sending, keeping its receiving paused if its stream's reader lags.
    private func resumeSending(_ transfer: CurlTransfer) {
        guard let easy = transfer.easy, running[easy.raw] != nil else { return }
        let pause = transfer.machine.isPausedForReader ? errand_curl_pause_recv : errand_curl_pause_continue
        curl_easy_pause(easy.raw, pause)
    }

    /// Takes a transfer's handle out of the multi handle (a transfer that did not end closes its connection).
    private func detach(_ transfer: CurlTransfer) {
        guard let multi, let easy = transfer.easy, running.removeValue(forKey: easy.raw) != nil else { return }
        curl_multi_remove_handle(multi, easy.raw)
    }

    /// Gives back the slot a transfer holds, and lets the next waiter of that host in.
    private func releaseSlot(of transfer: CurlTransfer) {
        guard let host = transfer.slotHost else { return }
        transfer.slotHost = nil
        guard let next = admission.release(at: host) else { return }
        next.slotHost = host
        perform(next.machine.admitted(), for: next)
    }

    /// Notes, outside libcurl's callbacks, that a stream's head arrived (see ``noteStreamHeads()``).
    func noteHead(of transfer: CurlTransfer) {
        guard transfer.isTLS, configuration.prefersHTTP2 else { return }
        streamHeads.append(transfer)
    }

    /// A stream may never end, so its server's HTTP/2 is noticed at its head rather than at its end: the streams
    /// waiting behind it then share the connection instead of waiting for a slot until their timeout. Done after
    /// `curl_multi_perform` returns, since admitting a waiter adds a handle to the multi handle.
    private func noteStreamHeads() {
        guard !streamHeads.isEmpty else { return }
        for transfer in streamHeads { noteMultiplexing(of: transfer) }
        streamHeads.removeAll(keepingCapacity: true)
    }

    /// A host that answered over HTTP/2 multiplexes: its waiters may share the connection.
    private func noteMultiplexing(of transfer: CurlTransfer) {
        guard transfer.isTLS, configuration.prefersHTTP2, let host = transfer.slotHost,
            let version = transfer.easy?.info(long: CURLINFO_HTTP_VERSION)
        else { return }
        // Both lanes share the server's connections, so both learn it.
        for isStream in [false, true] {
            let lane = AdmissionLane(server: host.server, isStream: isStream)
            for next in admission.noteMultiplexing(version == Int(CURL_HTTP_VERSION_2_0), at: lane) {
                next.slotHost = lane
                perform(next.machine.admitted(), for: next)
            }
        }
    }

    /// Forgets a finished transfer, before its outcome goes out (so a caller that hears of it sees it counted).
    private func forget(_ transfer: CurlTransfer) {
        if !timed.isEmpty { timed[ObjectIdentifier(transfer)] = nil }
        unfinished.store(unfinished.load(ordering: .relaxed) - 1, ordering: .relaxed)
    }

    /// Returns a finished transfer's handle to the pool.
    private func recycleHandle(of transfer: CurlTransfer, clean: Bool) {
        if let easy = transfer.easy { pool.recycle(easy, clean: clean) }
        transfer.easy = nil
    }

    /// Feeds libcurl's reports of finished hops to their machines.
    private func collectFinished(in multi: UnsafeMutableRawPointer) {
        var queued: Int32 = 0
        while let message = curl_multi_info_read(multi, &queued) {
            guard message.pointee.msg == CURLMSG_DONE, let handle = message.pointee.easy_handle,
                let transfer = running.removeValue(forKey: handle)
            else { continue }
            curl_multi_remove_handle(multi, handle)
            let code = message.pointee.data.result
            var outcome: Result<Void, ErrandError> =
                code == CURLE_OK
                ? .success(())
                : .failure(
                    transfer.failure(for: code))
            if code == CURLE_OK, let failure = transfer.unfinishedBodyFailure { outcome = .failure(failure) }
            perform(transfer.machine.completed(outcome), for: transfer)
        }
    }

    // MARK: Errand's own timers

    private func scheduleTimer(at instant: ContinuousClock.Instant) {
        if let next = nextTimerCheck, next <= instant { return }
        nextTimerCheck = instant
    }

    private func scheduleIdleTimer(of transfer: CurlTransfer) {
        if let deadline = transfer.idleDeadline { scheduleTimer(at: deadline) }
    }

    /// The longest `curl_multi_poll` sleeps while transfers run, though libcurl's timers and Errand's own would let
    /// it sleep longer: libcurl 7.88 can leave a transfer in its queue for a connection without a timer to wake it
    /// (raw libcurl, 64 transfers over HTTP/2 on 8 connections: a round stalled for one such second), and
    /// this bounds what such a miss costs. An idle loop sleeps until a command wakes it.
    static let pollCap: Int32 = 1000

    /// Fails the transfers whose timer passed, when one may have; returns how long `curl_multi_poll` may sleep, in
    /// milliseconds (libcurl's own timers shorten it further).
    private func checkTimers() -> Int32 {
        let cap = running.isEmpty ? Int32.max : Self.pollCap
        guard let due = nextTimerCheck else { return cap }
        let now = ContinuousClock.now
        if due <= now {
            nextTimerCheck = nil
            var expired: [(CurlTransfer, ErrandError)] = []
            for transfer in timed.values {
                if let deadline = transfer.queueDeadline {
                    if deadline <= now {
                        expired.append((transfer, transfer.totalTimeoutFailure))
                    } else {
                        scheduleTimer(at: deadline)
                    }
                }
                if let deadline = transfer.idleDeadline {
                    if deadline <= now {
                        expired.append((transfer, transfer.idleTimeoutFailure))
                    } else {
                        scheduleTimer(at: deadline)
                    }
                }
            }
            for (transfer, failure) in expired { perform(transfer.machine.fail(failure), for: transfer) }
        }
        guard let next = nextTimerCheck else { return cap }
        return min(cap, Int32(clamping: CurlTransfer.milliseconds(max(.zero, next - now))))
    }
}

/// The loop as an executor for tasks that prefer it: their jobs run on the loop thread between its passes' other work.
extension CurlLoop: TaskExecutor {
    func enqueue(_ job: consuming ExecutorJob) {
        submit(.run(UnownedJob(job)))
    }
}
#endif
