#if canImport(CCurl)
@testable import Errand
import Foundation
import TestSupport
import Testing

/// Which of libcurl's progress reports count, decided by the transfer's state machine, and progress over curl.
@Suite("Curl transport: progress")
struct CurlTransferProgressTests {
    typealias Machine = CurlTransferStateMachine

    private static func running(_ mode: Machine.Mode) -> Machine {
        var machine = Machine(mode: mode, url: URL(string: "http://127.0.0.1/a")!, maxBodySize: 1000)
        _ = machine.start()
        _ = machine.configured()
        _ = machine.admitted()
        return machine
    }

    @Test("progress counts while the head is awaited and the body is buffered or streamed")
    func counts() {
        var machine = Machine(
            mode: .buffered, url: URL(string: "http://127.0.0.1/a")!, maxBodySize: 1000)
        #expect(!machine.countsProgress)
        _ = machine.start()
        _ = machine.configured()
        #expect(!machine.countsProgress)
        _ = machine.admitted()
        #expect(machine.countsProgress)
        _ = machine.headReceived(declaredBodySize: 10)
        #expect(machine.countsProgress)
        var streaming = Self.running(.streaming)
        _ = streaming.headReceived(declaredBodySize: nil)
        _ = streaming.streamRefused()
        #expect(streaming.countsProgress)
        _ = streaming.completed(.success(()))
        #expect(!streaming.countsProgress)
    }

    @Test("an aborting transfer does not count")
    func doesNotCount() {
        var aborting = Self.running(.buffered)
        _ = aborting.headReceived(declaredBodySize: 5000)
        #expect(!aborting.countsProgress)
    }

    @Test("a redirected download counts the final body only", .enabled(if: TestServer.httpbin.isUsable))
    func redirect() async throws {
        let client = APIClient(
            configuration: ClientConfiguration(
                baseURL: try TestServer.httpbin.url(), transport: CurlTransport()))
        let progress = TransferProgressStream(interval: .milliseconds(1))
        async let updates: [TransferProgress] = {
            var seen: [TransferProgress] = []; for await u in progress { seen.append(u) }; return seen
        }()
        let response = try await client.send(
            Request<Data>(
                path: "redirect-to", query: [QueryItem("url", "/bytes/4000"), QueryItem("status_code", "302")]),
            progress: progress)
        let seen = await updates
        #expect(response.data.count == 4000)
        #expect(seen.last?.bytesReceived == 4000)
        #expect(seen.allSatisfy { ($0.totalBytesToReceive ?? 4000) == 4000 })
    }
}
#endif
