#if canImport(CCurl)
@testable import Errand
import Foundation
import TestSupport
import Testing

/// Tasks that prefer a transport's executor run on its loop thread.
@Suite("Curl transport: the loop as a task executor")
struct CurlExecutorTests {
    @Test(
        "a task preferring the executor runs on the loop thread, and its requests, one after another or together, complete",
        .enabled(if: TestServer.nginxHTTP.isUsable))
    func tasksRunOnTheLoop() async throws {
        let transport = CurlTest.transport()
        let request = try CurlTest.request(.nginxHTTP, "/small.json")
        let loop = transport.loop
        let (statuses, onLoop) = try await withTaskExecutorPreference(transport.executor) {
            var statuses: [Int] = []
            var onLoop = loop.isLoopThread
            for _ in 0..<20 {
                statuses.append(try await transport.send(request).status)
                onLoop = onLoop && loop.isLoopThread
            }
            let together = try await withThrowingTaskGroup(of: Bool.self) { group in
                for _ in 0..<8 {
                    group.addTask {
                        let status = try await transport.send(request).status
                        return status == 200 && loop.isLoopThread
                    }
                }
                return try await group.reduce(true) { $0 && $1 }
            }
            return (statuses, onLoop && together)
        }
        #expect(statuses == Array(repeating: 200, count: 20))
        #expect(onLoop, "some of the task's code ran off the loop thread")
        #expect(!loop.isLoopThread)
    }

    @Test("a task preferring the executor of a transport that is gone still runs, on the global executor")
    func executorOutlivesTransport() async throws {
        var transport: CurlTransport? = CurlTransport()
        let executor = try #require(transport?.executor)
        weak let released = transport
        transport = nil
        #expect(released == nil)
        let value = await withTaskExecutorPreference(executor) {
            await Task.yield()
            return 42
        }
        #expect(value == 42)
    }
}
#endif
