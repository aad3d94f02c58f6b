@testable import Errand
import ErrandTesting
import Foundation
import TestSupport
import Testing

@Suite("Transfer progress: the throttle's flush and what is counted")
struct ProgressFlushTests {
    @Test("the throttle yields the first change, holds later ones until the interval passes, and flushes them then")
    func throttleMachine() {
        var throttle = ProgressThrottle(interval: .milliseconds(50))
        #expect(throttle.changed(at: .zero) == .yield)
        #expect(throttle.changed(at: .milliseconds(10)) == .scheduleFlush(deadline: .milliseconds(50)))
        // Held already: the timer will carry the newest counts.
        #expect(throttle.changed(at: .milliseconds(20)) == .none)
        #expect(throttle.state == .holding(lastYield: .zero))
        #expect(throttle.flushDue(at: .milliseconds(50)) == .yield)
        #expect(throttle.state == .quiet(lastYield: .milliseconds(50)))
        // A timer that fires late, after a report went out on its own, finds nothing to do.
        #expect(throttle.flushDue(at: .milliseconds(60)) == .none)
        #expect(throttle.changed(at: .milliseconds(100)) == .yield)
        #expect(throttle.changed(at: .milliseconds(120)) == .scheduleFlush(deadline: .milliseconds(150)))
        #expect(throttle.finish() == .yieldLast(cancelsFlush: true))
        #expect(throttle.state == .finished)
        #expect(throttle.changed(at: .seconds(1)) == .none)
        #expect(throttle.flushDue(at: .seconds(1)) == .none)
        #expect(throttle.finish() == .none)

        var quiet = ProgressThrottle(interval: .milliseconds(50))
        #expect(quiet.finish() == .yieldLast(cancelsFlush: false))
    }

    @Test("an update held back during a stall goes out when the interval has passed on the stream's clock")
    func stallFlushes() async {
        let clock = ManualClock()
        let progress = TransferProgressStream(interval: .milliseconds(50), clock: clock)
        var updates = progress.makeAsyncIterator()
        progress.report(TransferProgress(bytesReceived: 10))
        #expect(await updates.next() == TransferProgress(bytesReceived: 10))
        // A burst within the interval, then silence: the transfer stalls.
        progress.report(TransferProgress(bytesReceived: 500_000))
        progress.report(TransferProgress(bytesReceived: 1 << 20))
        await clock.sleepers(1)
        #expect(clock.nextDeadline == ManualClock.Instant(offset: .milliseconds(50)))
        clock.advance(by: .milliseconds(50))
        #expect(await updates.next() == TransferProgress(bytesReceived: 1 << 20))
        #expect(clock.sleeperCount == 0)
        progress.finish()
        #expect(await updates.next() == TransferProgress(bytesReceived: 1 << 20))
        #expect(await updates.next() == nil)
    }

    @Test("finishing while an update is held back cancels its timer and ends with the latest counts")
    func finishCancelsFlush() async {
        let clock = ManualClock()
        let progress = TransferProgressStream(interval: .seconds(1), clock: clock)
        progress.report(TransferProgress(bytesSent: 1))
        progress.report(TransferProgress(bytesSent: 2))
        await clock.sleepers(1)
        progress.finish()
        await clock.sleepers(0)
        var seen: [TransferProgress] = []
        for await update in progress { seen.append(update) }
        #expect(seen.last == TransferProgress(bytesSent: 2))
    }

    static func collect(_ progress: TransferProgressStream) async -> [TransferProgress] {
        var updates: [TransferProgress] = []
        for await update in progress { updates.append(update) }
        return updates
    }

    /// A transport that reports a burst of progress, then stalls until its gate opens.
    struct StallingTransport: Transport {
        let gate: TestSupport.Gate

        func send(_ request: TransportRequest) async throws -> TransportResponse {
            request.options.progress?.report(TransferProgress(bytesReceived: 1, totalBytesToReceive: 100))
            request.options.progress?.report(TransferProgress(bytesReceived: 60))
            await gate.pass()
            request.options.progress?.report(TransferProgress(bytesReceived: 100))
            return TransportResponse(status: 200, headers: [:], body: Data(count: 100), url: request.url)
        }
    }

    @Test("a stream made without a clock measures its interval on the client's clock")
    func adoptsClientClock() async throws {
        let clock = ManualClock()
        let gate = TestSupport.Gate()
        let client = APIClient(
            configuration: ClientConfiguration(
                baseURL: try #require(URL(string: "http://127.0.0.1:1")), transport: StallingTransport(gate: gate),
                clock: clock))
        let progress = TransferProgressStream(interval: .milliseconds(50))
        var updates = progress.makeAsyncIterator()
        async let response = client.send(Request<Data>(path: "stall"), progress: progress)
        #expect(await updates.next()?.bytesReceived == 1)
        await gate.waitForArrival()
        await clock.sleepers(1)
        clock.advance(by: .milliseconds(50))
        // Still stalled: the held-back count arrives on the client's clock alone.
        #expect(await updates.next()?.bytesReceived == 60)
        gate.open()
        #expect(try await response.status == 200)
        var last: TransferProgress?
        while let update = await updates.next() { last = update }
        #expect(last?.bytesReceived == 100)
    }

    @Test(
        "a gzip response counts wire bytes from the first update to the last",
        .enabled(if: TestServer.nginxHTTP.isUsable), arguments: TransportKind.allCases)
    func gzipCountsOneThing(kind: TransportKind) async throws {
        let client = APIClient(
            configuration: ClientConfiguration(baseURL: try TestServer.nginxHTTP.url(), transport: kind.make()))
        let progress = TransferProgressStream(interval: .zero)
        async let updates = Self.collect(progress)
        let response = try await client.send(Request<Data>(path: "big.json"), progress: progress)
        let seen = await updates
        let last = try #require(seen.last)
        // Monotonic: an earlier update counting decoded bytes would pass the last one counting wire bytes.
        #expect(TransferProgressTests.isMonotonic(seen))
        #expect(last.totalBytesToReceive == last.bytesReceived)
        if kind.rawValue == "curl" {
            // nginx compressed it: the wire carried fewer bytes than the decoded body has.
            #expect(response.headers["Content-Encoding"] == "gzip")
            #expect(last.bytesReceived < Int64(response.data.count))
        } else {
            // URLSession on Linux asks for identity: the wire carried the body as it is.
            #expect(last.bytesReceived == Int64(response.data.count))
            // Asked for gzip by the request, URLSession hands over decoded bytes: those are counted throughout, with
            // no total (the coded length) to compare them with before the end.
            let coded = TransferProgressStream(interval: .zero)
            async let codedUpdates = Self.collect(coded)
            let decoded = try await client.send(
                Request<Data>(path: "big.json", headers: ["Accept-Encoding": "gzip"]), progress: coded)
            let codedSeen = await codedUpdates
            #expect(decoded.headers["Content-Encoding"] == "gzip")
            #expect(TransferProgressTests.isMonotonic(codedSeen))
            #expect(codedSeen.dropLast().allSatisfy { $0.totalBytesToReceive == nil })
            #expect(codedSeen.last?.bytesReceived == Int64(decoded.data.count))
        }
    }
}
