#if canImport(CCurl)
import CCurl
import Foundation
import Synchronization

/// The thread that drives one libcurl multi handle: it adds submitted transfers, runs `curl_multi_perform`, finishes
/// transfers as libcurl reports them done, and sleeps in `curl_multi_poll` until a socket, a timer or a submission
/// (`curl_multi_wakeup`) needs it.
///
/// A submission wakes the loop only when it sleeps in `curl_multi_poll` (and only once per sleep): while the loop is
/// busy it picks new commands up before it would sleep, so under load most submissions cost no system call.
///
/// `@unchecked Sendable` because everything mutable here except the inbox — the multi handle and the table of
/// running transfers — is used by the loop thread alone; other threads only append to the inbox (a `Mutex`) and call
/// `curl_multi_wakeup`, which libcurl allows from any thread.
final class CurlLoop: @unchecked Sendable {
    enum Command {
        case start(CurlTransfer)
        case cancel(CurlTransfer)
        case resume(CurlTransfer)
        case shutdown
    }

    let pool: CurlEasyPool
    /// Large response-body buffers for reuse.
    let bodies = ResponseBodyPool()
    private let multi: UnsafeMutableRawPointer?
    private struct Inbox {
        var commands: [Command] = []
        /// Whether the loop sleeps (or is about to) in `curl_multi_poll` without a wake-up pending.
        var isPolling = false
    }

    private let inbox = Mutex(Inbox())
    /// Whether the inbox holds commands, readable without the lock while the loop waits briefly for a submission.
    private let hasCommands = Atomic<Bool>(false)
    /// Transfers started and not yet finished, readable from any thread.
    let inFlight = Atomic<Int>(0)
    /// How many buffered responses reached a caller that waited without suspending (for tests and diagnostics).
    let quickHandoffs = Atomic<Int>(0)
    /// A moving average of recent exchanges' durations in nanoseconds; `Int.max` until the first one finishes.
    private let typicalExchange = Atomic<Int>(Int.max)
    /// Whether waiting without sleeping can pay at all: with one processor it only delays the threads waited for.
    private static let hasSpareProcessors = ProcessInfo.processInfo.activeProcessorCount > 1
    private var running: [UnsafeMutableRawPointer: CurlTransfer] = [:]
    /// Suspended callers whose outcomes this pass of the loop delivered, resumed together by ``resumeWaiters()``.
    private var resumptions: [Resumption] = []
    private var idleWatched = 0

    init(configuration: CurlTransport.Configuration) {
        CurlGlobal.ensureInitialized()
        pool = CurlEasyPool(limit: 256, configuration: configuration)
        multi = curl_multi_init()
        guard let multi else { return }
        _ = errand_curl_multi_setopt_long(multi, CURLMOPT_PIPELINING, errand_curl_pipe_multiplex)
        _ = errand_curl_multi_setopt_long(multi, CURLMOPT_MAX_HOST_CONNECTIONS, configuration.maxConnectionsPerHost)
        if let total = configuration.maxConnections {
            _ = errand_curl_multi_setopt_long(multi, CURLMOPT_MAX_TOTAL_CONNECTIONS, total)
        }
        let thread = Thread { [self] in run() }
        thread.name = "errand.curl"
        thread.start()
    }

    /// Queues a command for the loop and wakes it.
    func submit(_ command: Command) {
        guard let multi else {
            if case .start(let transfer) = command { refuse(transfer) }
            return
        }
        let sleeping = inbox.withLock { inbox in
            inbox.commands.append(command)
            hasCommands.store(true, ordering: .releasing)
            defer { inbox.isPolling = false }
            return inbox.isPolling
        }
        if sleeping { curl_multi_wakeup(multi) }
    }

    /// Records how long an exchange took, for ``answersQuickly``.
    func noteExchange(lasting duration: Duration) {
        let sample = Self.nanoseconds(duration)
        let average = typicalExchange.load(ordering: .relaxed)
        typicalExchange.store(average == .max ? sample : average - average / 8 + sample / 8, ordering: .relaxed)
    }

    /// Whether a request just started is alone in flight and recent exchanges were quick: then its caller waiting
    /// for the outcome without sleeping costs less than being woken.
    var expectsQuickExchange: Bool {
        inFlight.load(ordering: .relaxed) == 1 && answersQuickly
    }

    /// Whether recent exchanges took less than ``quickExchange`` and a spare processor lets waiting without sleeping pay.
    var answersQuickly: Bool {
        Self.hasSpareProcessors && typicalExchange.load(ordering: .relaxed) < quickExchangeNanoseconds.load(ordering: .relaxed)
    }

    /// Below this typical duration, exchanges are quick enough that the loop and a lone caller watch for them
    /// rather than sleep; a lone caller watches for up to this long. 250 µs: a loopback or LAN exchange takes about
    /// 100 µs, and being woken costs 20–50 µs of it; past a few hundred microseconds the saving is too small a share
    /// to be worth a processor spinning.
    var quickExchange: Duration {
        get { .nanoseconds(quickExchangeNanoseconds.load(ordering: .relaxed)) }
        set { quickExchangeNanoseconds.store(Self.nanoseconds(newValue), ordering: .relaxed) }
    }

    private let quickExchangeNanoseconds = Atomic<Int>(250_000)

    private static func nanoseconds(_ duration: Duration) -> Int {
        let (seconds, attoseconds) = duration.components
        return seconds >= Int64(Int.max / 1_000_000_000) ? .max : Int(seconds) * 1_000_000_000 + Int(attoseconds / 1_000_000_000)
    }

    /// Stops the loop: running transfers fail as cancelled, connections close, the multi handle is freed.
    func shutdown() {
        submit(.shutdown)
    }

    // MARK: The loop thread

    private func run() {
        guard let multi else { return }
        var pending: [Command] = []
        var stillRunning: Int32 = 0
        while true {
            inbox.withLock { inbox in
                inbox.isPolling = false
                swap(&inbox.commands, &pending)
                hasCommands.store(false, ordering: .relaxed)
            }
            var stopping = false
            for command in pending {
                switch command {
                case .start(let transfer): add(transfer, to: multi)
                case .cancel(let transfer): abort(transfer, with: .cancelled, in: multi)
                case .resume(let transfer): unpause(transfer)
                case .shutdown: stopping = true
                }
            }
            pending.removeAll(keepingCapacity: true)
            if stopping { break }
            curl_multi_perform(multi, &stillRunning)
            let delivered = collectFinished(in: multi)
            let idleWait = expireIdleTransfers(in: multi)
            resumeWaiters()
            // A caller that just got its response often sends the next request at once; when nothing else is in
            // flight, watching the inbox for a moment catches it without the system calls and the thread switch of
            // sleeping in `curl_multi_poll` and being woken.
            if delivered, running.isEmpty, awaitCommand(for: Self.submissionWait) { continue }
            // With one transfer running against a server that answers within microseconds, watching its socket for
            // a moment catches the response without the sleep and wake-up of `curl_multi_poll`.
            if running.count == 1, answersQuickly, awaitSocket(multi, for: Self.socketWait) { continue }
            let maySleep = inbox.withLock { inbox in
                guard inbox.commands.isEmpty else { return false }
                inbox.isPolling = true
                return true
            }
            if maySleep { curl_multi_poll(multi, nil, 0, Int32(min(idleWait ?? 1000, 1000)), nil) }
        }
        for transfer in Array(running.values) {
            abort(transfer, with: .cancelled, in: multi)
        }
        // Commands queued after shutdown have no loop left to run them: fail what would otherwise wait forever.
        for command in inbox.withLock({ inbox in defer { inbox.commands.removeAll() }; return inbox.commands }) {
            if case .start(let transfer) = command { conclude(transfer, code: CURLE_ABORTED_BY_CALLBACK, in: multi) }
        }
        resumeWaiters()
        curl_multi_cleanup(multi)
        pool.drain()
    }

    private func add(_ transfer: CurlTransfer, to multi: UnsafeMutableRawPointer) {
        guard let easy = transfer.easy else { return }
        if transfer.isCancelRequested {
            transfer.fail(.cancelled)
            conclude(transfer, code: CURLE_ABORTED_BY_CALLBACK, in: multi)
            return
        }
        if transfer.request.timeouts.idle != nil { transfer.lastActivity = .now }
        guard curl_multi_add_handle(multi, easy.raw) == CURLM_OK else {
            transfer.fail(.transport(TransportFailure(
                kind: .other, url: transfer.request.url, underlying: "libcurl refused the transfer")))
            conclude(transfer, code: CURLE_ABORTED_BY_CALLBACK, in: multi)
            return
        }
        transfer.isInMulti = true
        running[easy.raw] = transfer
        if transfer.request.timeouts.idle != nil { idleWatched += 1 }
    }

    /// Stops a running transfer at once (libcurl closes its connection) and fails it with `failure`.
    private func abort(_ transfer: CurlTransfer, with failure: ErrandError, in multi: UnsafeMutableRawPointer) {
        guard let easy = transfer.easy, running[easy.raw] === transfer else { return }
        transfer.fail(failure)
        conclude(transfer, code: CURLE_ABORTED_BY_CALLBACK, in: multi)
    }

    private func unpause(_ transfer: CurlTransfer) {
        guard let easy = transfer.easy, running[easy.raw] === transfer, transfer.isPausedForReader else { return }
        transfer.isPausedForReader = false
        transfer.lastActivity = .now
        curl_easy_pause(easy.raw, errand_curl_pause_continue)
    }

    /// Concludes the transfers libcurl reports done; true when there were any.
    private func collectFinished(in multi: UnsafeMutableRawPointer) -> Bool {
        var queued: Int32 = 0
        var any = false
        while let message = curl_multi_info_read(multi, &queued) {
            guard message.pointee.msg == CURLMSG_DONE, let handle = message.pointee.easy_handle,
                let transfer = running[handle]
            else { continue }
            let code = message.pointee.data.result
            conclude(transfer, code: code, in: multi)
            any = true
        }
        return any
    }

    /// How long the loop watches the inbox after delivering responses before it sleeps: long enough for a caller's
    /// task to be resumed and send its next request, short enough to cost little when none comes.
    static let submissionWait = Duration.microseconds(100)
    /// For how much of ``submissionWait`` the loop only spins; after that it yields the processor between looks, so a
    /// thread waiting for this processor (the caller's, on a busy machine) can run.
    static let spinOnly = Duration.microseconds(30)

    /// How long the loop watches the socket of a lone transfer before it sleeps, when exchanges have been quick.
    static let socketWait = Duration.microseconds(60)

    /// Watches the transfers' sockets (and the inbox) without sleeping for up to `limit`; true when either is ready.
    private func awaitSocket(_ multi: UnsafeMutableRawPointer, for limit: Duration) -> Bool {
        let clock = ContinuousClock()
        let deadline = clock.now + limit
        repeat {
            var ready: Int32 = 0
            curl_multi_wait(multi, nil, 0, 0, &ready)
            if ready > 0 || hasCommands.load(ordering: .acquiring) { return true }
        } while clock.now < deadline
        return false
    }

    /// Waits up to `limit` for a command; true when one arrived.
    private func awaitCommand(for limit: Duration) -> Bool {
        BriefWait.until(limit, spinningFor: Self.spinOnly) { hasCommands.load(ordering: .acquiring) }
    }

    /// Takes a transfer out of the multi handle; follows its redirect or delivers its outcome.
    private func conclude(_ transfer: CurlTransfer, code: CURLcode, in multi: UnsafeMutableRawPointer) {
        guard let easy = transfer.easy else { return }
        // A head read from libcurl's store is decided when the body starts; one with no body, here.
        if code == CURLE_OK { _ = transfer.decideStoredHead() }
        if transfer.shouldFollowRedirect(after: code) {
            detach(transfer, easy, from: multi)
            if transfer.prepareRedirect() {
                add(transfer, to: multi)
                return
            }
        }
        let clean = code == CURLE_OK && transfer.failure == nil
        // Out of the multi handle (a failed or aborted transfer's connection closes) before anyone hears of the
        // outcome: a buffered response's caller reads the head and metrics from the handle.
        detach(transfer, easy, from: multi)
        let (handle, resumption) = transfer.finish(code: code)
        if let handle { pool.recycle(handle, clean: clean) }
        if let resumption { resumptions.append(resumption) }
    }

    /// Resumes the callers this pass delivered to. A lone one is resumed here, at once. Several are resumed by one
    /// job on the global pool: each resumption schedules its task there and may wake a sleeping worker thread (a
    /// system call of several microseconds), and at high concurrency this thread is the one every request waits for,
    /// so it hands a pass's worth of that work over at the cost of one.
    private func resumeWaiters() {
        switch resumptions.count {
        case 0:
            return
        case 1:
            resumptions[0].perform()
            resumptions.removeAll(keepingCapacity: true)
        default:
            let batch = resumptions
            resumptions = []
            resumptions.reserveCapacity(batch.count)
            DispatchQueue.global().async {
                for resumption in batch { resumption.perform() }
            }
        }
    }

    /// Takes a transfer's handle out of the multi handle and the table of running transfers, once.
    private func detach(_ transfer: CurlTransfer, _ easy: CurlEasyHandle, from multi: UnsafeMutableRawPointer) {
        guard transfer.isInMulti else { return }
        curl_multi_remove_handle(multi, easy.raw)
        transfer.isInMulti = false
        running[easy.raw] = nil
        if transfer.request.timeouts.idle != nil { idleWatched -= 1 }
    }

    /// Fails transfers idle for longer than their idle timeout; returns milliseconds until the next one could expire.
    private func expireIdleTransfers(in multi: UnsafeMutableRawPointer) -> Int? {
        guard idleWatched > 0 else { return nil }
        let now = ContinuousClock.now
        var soonest: Duration?
        var expired: [CurlTransfer] = []
        for transfer in running.values {
            guard let left = transfer.idleTimeLeft(at: now) else { continue }
            if left <= .zero {
                expired.append(transfer)
            } else {
                soonest = min(soonest ?? left, left)
            }
        }
        for transfer in expired {
            let idle = transfer.request.timeouts.idle ?? .zero
            abort(transfer, with: .transport(TransportFailure(
                kind: .timedOut, url: transfer.request.url, underlying: "no data received for \(idle)")), in: multi)
        }
        return soonest.map { CurlTransfer.milliseconds($0) }
    }

    /// Fails a transfer that cannot run because libcurl could not create a multi handle.
    private func refuse(_ transfer: CurlTransfer) {
        transfer.fail(.transport(TransportFailure(
            kind: .other, url: transfer.request.url, underlying: "libcurl could not create a multi handle")))
        let (handle, resumption) = transfer.finish(code: CURLE_FAILED_INIT)
        if let handle { pool.recycle(handle, clean: false) }
        resumption?.perform()
    }
}
#endif
