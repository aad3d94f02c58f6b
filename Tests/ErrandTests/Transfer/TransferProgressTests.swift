@testable import Errand
import Foundation
import TestSupport
import Testing

@Suite("Transfer progress")
struct TransferProgressTests {
    @Test("reports are merged so that nothing goes back, throttled, and the end carries the final counts")
    func stream() async {
        let progress = TransferProgressStream(interval: .seconds(60))
        progress.report(TransferProgress(bytesReceived: 10, totalBytesToReceive: 100))
        // Within the interval: held back, but kept as the latest.
        progress.report(TransferProgress(bytesReceived: 50))
        progress.report(TransferProgress(bytesReceived: 20))
        #expect(progress.current == TransferProgress(bytesReceived: 50, totalBytesToReceive: 100))
        progress.finish(completing: TransferProgress(bytesSent: 3, bytesReceived: 100))
        progress.report(TransferProgress(bytesReceived: 500))
        var updates: [TransferProgress] = []
        for await update in progress { updates.append(update) }
        // The buffer keeps the newest: the final one. The bytes received stay what the transport counted (wire bytes,
        // where the response's 100 may be decoded ones); the bytes sent come from the response.
        #expect(
            updates.last
                == TransferProgress(bytesSent: 3, totalBytesToSend: 3, bytesReceived: 50, totalBytesToReceive: 50))
        #expect(updates.count <= 2)

        // No transport reported (a cached answer): the response's counts are the final ones.
        let cached = TransferProgressStream(interval: .seconds(60))
        cached.finish(completing: TransferProgress(bytesSent: 0, bytesReceived: 100))
        var last: TransferProgress?
        for await update in cached { last = update }
        #expect(
            last == TransferProgress(bytesSent: 0, totalBytesToSend: 0, bytesReceived: 100, totalBytesToReceive: 100))
    }

    @Test("fractionCompleted follows the response, else the request")
    func fraction() {
        #expect(TransferProgress(bytesReceived: 25, totalBytesToReceive: 100).fractionCompleted == 0.25)
        #expect(TransferProgress(bytesSent: 5, totalBytesToSend: 10).fractionCompleted == 0.5)
        #expect(TransferProgress(bytesReceived: 5).fractionCompleted == nil)
    }

    func collect(_ progress: TransferProgressStream) async -> [TransferProgress] {
        var updates: [TransferProgress] = []
        for await update in progress { updates.append(update) }
        return updates
    }

    static func isMonotonic(_ updates: [TransferProgress]) -> Bool {
        zip(updates, updates.dropFirst()).allSatisfy {
            $0.bytesSent <= $1.bytesSent && $0.bytesReceived <= $1.bytesReceived
        }
    }

    @Test(
        "an upload reports the bytes sent, monotonic, ending at the body's size",
        .enabled(if: TestServer.httpbin.isUsable), arguments: TransportKind.allCases)
    func upload(kind: TransportKind) async throws {
        let client = APIClient(
            configuration: ClientConfiguration(baseURL: try TestServer.httpbin.url(), transport: kind.make()))
        let body = Data(repeating: 0x61, count: 3 << 20)
        let progress = TransferProgressStream(interval: .milliseconds(1))
        async let updates = collect(progress)
        let response = try await client.send(
            Request<Data>(method: .post, path: "anything", body: .data(body, contentType: "application/octet-stream")),
            progress: progress)
        let seen = await updates
        #expect(response.status == 200)
        #expect(Self.isMonotonic(seen))
        #expect(seen.last?.bytesSent == Int64(body.count))
        #expect(seen.last?.totalBytesToSend == Int64(body.count))
        #expect(seen.last?.bytesReceived == Int64(response.data.count))
    }

    @Test(
        "a download into memory reports the bytes received against Content-Length",
        .enabled(if: TestServer.nginxHTTP.isUsable), arguments: TransportKind.allCases)
    func download(kind: TransportKind) async throws {
        let served = try DownloadTests.Served(size: 6 << 20)
        let client = APIClient(
            configuration: ClientConfiguration(baseURL: try TestServer.nginxHTTP.url(), transport: kind.make()))
        let progress = TransferProgressStream(interval: .milliseconds(1))
        async let updates = collect(progress)
        let response = try await client.send(Request<Data>(url: try served.url()), progress: progress)
        let seen = await updates
        #expect(response.data == served.contents)
        #expect(Self.isMonotonic(seen))
        #expect(seen.count >= 2)
        #expect(
            seen.dropLast().allSatisfy { $0.totalBytesToReceive == nil || $0.totalBytesToReceive == Int64(6 << 20) })
        #expect(
            seen.last
                == TransferProgress(
                    bytesSent: 0, totalBytesToSend: 0, bytesReceived: 6 << 20, totalBytesToReceive: 6 << 20))
        // A request nobody watches, on the same transport, after it: nothing reaches the finished stream.
        _ = try await client.send(Request<Data>(url: try served.url()))
        #expect(progress.current.bytesReceived == 6 << 20)
    }

    @Test(
        "a failed transfer still ends the sequence", .enabled(if: TestServer.fault.isUsable),
        arguments: TransportKind.allCases)
    func failure(kind: TransportKind) async throws {
        let client = APIClient(
            configuration: ClientConfiguration(baseURL: try TestServer.fault.url(), transport: kind.make()))
        let progress = TransferProgressStream()
        async let updates = collect(progress)
        await #expect(throws: ErrandError.self) {
            try await client.send(Request<Data>(path: "close-mid-body/progress-\(UUID())"), progress: progress)
        }
        let seen = await updates
        #expect(seen.count >= 1)
        #expect(Self.isMonotonic(seen))
    }
}
