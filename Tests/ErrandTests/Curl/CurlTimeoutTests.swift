#if canImport(CCurl)
import Errand
import Foundation
import TestSupport
import Testing

@Suite("Curl transport: timeouts and cancellation")
struct CurlTimeoutTests {
    // Measures real time: the transport's own timer or cancellation on the wire is what is tested; the bound is generous.
    @Test(
        "a 300 ms total timeout fires long before the server's 3 s answer (real time)",
        .enabled(if: TestServer.httpbin.isUsable))
    func totalTimeoutInMillisecondsRealTime() async throws {
        let transport = CurlTest.transport()
        let request = try CurlTest.request(.httpbin, "/delay/3", timeouts: Timeouts(total: .milliseconds(300)))
        let clock = ContinuousClock()
        let started = clock.now
        let error = await #expect(throws: ErrandError.self) { try await transport.send(request) }
        let elapsed = clock.now - started
        #expect(error.flatMap(CurlTest.failureKind) == .timedOut)
        #expect(elapsed >= .milliseconds(250))
        #expect(elapsed < .milliseconds(2_500))
    }

    // Measures real time: the transport's own timer or cancellation on the wire is what is tested; the bound is generous.
    @Test("an idle timeout fires when the body stalls (real time)", .enabled(if: TestServer.httpbin.isUsable))
    func idleTimeoutFiresOnStallRealTime() async throws {
        let transport = CurlTest.transport()
        // Three bytes over three seconds: a second without data between bytes.
        let request = try CurlTest.request(
            .httpbin, "/drip?duration=3&numbytes=3&delay=0", timeouts: Timeouts(idle: .milliseconds(300)))
        let clock = ContinuousClock()
        let started = clock.now
        let error = await #expect(throws: ErrandError.self) { try await transport.send(request) }
        #expect(error.flatMap(CurlTest.failureKind) == .timedOut)
        #expect(clock.now - started < .milliseconds(2_500))
    }

    @Test("an idle timeout does not fire while bytes keep coming", .enabled(if: TestServer.httpbin.isUsable))
    func idleTimeoutToleratesSteadyDataRealTime() async throws {
        let transport = CurlTest.transport()
        // Ten bytes over a second: a gap of 100 ms, well inside the idle timeout, though the whole takes longer.
        let request = try CurlTest.request(
            .httpbin, "/drip?duration=1&numbytes=10&delay=0", timeouts: Timeouts(idle: .milliseconds(700)))
        let response = try await transport.send(request)
        #expect(response.status == 200)
        #expect(response.body.count == 10)
    }

    // Measures real time: the transport's own timer or cancellation on the wire is what is tested; the bound is generous.
    @Test(
        "cancelling the task fails the request long before the server's 5 s with .cancelled (real time)",
        .enabled(if: TestServer.httpbin.isUsable))
    func cancellationIsImmediateRealTime() async throws {
        let transport = CurlTest.transport()
        let request = try CurlTest.request(.httpbin, "/drip?duration=5&numbytes=5&delay=0")
        let (heads, headArrived) = AsyncStream.makeStream(of: Int.self)
        let task = Task {
            let response = try await transport.stream(request)
            headArrived.yield(response.status)
            for try await _ in response.body {}
        }
        // The head arriving proves the transfer is running; cancel while it waits for the slow body.
        var iterator = heads.makeAsyncIterator()
        #expect(await iterator.next() == 200)
        let clock = ContinuousClock()
        let cancelled = clock.now
        task.cancel()
        let result = await task.result
        #expect(clock.now - cancelled < .seconds(3))
        guard case .failure(let error) = result else {
            Issue.record("the cancelled stream finished normally")
            return
        }
        #expect((error as? ErrandError).map { if case .cancelled = $0 { true } else { false } } == true)
    }

    @Test(
        "cancellation closes the connection instead of returning it to the pool",
        .enabled(if: TestServer.nginxHTTP.isUsable))
    func cancellationClosesConnection() async throws {
        let transport = CurlTest.transport(streamBufferSize: 64 * 1024)
        let small = try CurlTest.request(.nginxHTTP, "/small.json")
        let first = try await transport.send(small)
        let second = try await transport.send(small)
        #expect(first.metrics.connectionReused == false)
        #expect(second.metrics.connectionReused == true)

        let large = try CurlTest.request(.nginxHTTP, "/large.bin", maxResponseBodySize: .max)
        let reader = Task {
            let response = try await transport.stream(large)
            var received = 0
            for try await chunk in response.body {
                received += chunk.count
                if received >= 1 << 20 { withUnsafeCurrentTask { $0?.cancel() } }
            }
            return received
        }
        let result = await reader.result
        guard case .failure(let error) = result, case .cancelled? = error as? ErrandError else {
            Issue.record("expected the stream to fail with .cancelled, got \(result)")
            return
        }
        let after = try await transport.send(small)
        #expect(after.status == 200)
        #expect(after.metrics.connectionReused == false)
    }

    @Test("a closed port fails with cannotConnect")
    func connectionRefused() async throws {
        let transport = CurlTest.transport()
        let request = TransportRequest(
            url: try #require(URL(string: "http://127.0.0.1:1/")), timeouts: Timeouts(total: .seconds(5)))
        let error = await #expect(throws: ErrandError.self) { try await transport.send(request) }
        #expect(error.flatMap(CurlTest.failureKind) == .cannotConnect)
    }
}
#endif
