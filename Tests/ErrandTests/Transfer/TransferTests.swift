import Errand
import ErrandTesting
import Foundation
import Testing

/// A transfer keeps `ErrandError` the thrown type where `async let` would erase it, reports progress to the end, and
/// stops when cancelled.
@Suite("Transfers with typed errors")
struct TransferTests {
    private static func client(_ stub: StubTransport) -> APIClient {
        APIClient(configuration: ClientConfiguration(baseURL: URL(string: "https://example.com")!, transport: stub))
    }

    @Test("the value is the response; the progress ends with the final counts")
    func valueAndFinalProgress() async throws {
        let stub = StubTransport()
        stub.respond(to: "upload", body: Data("stored".utf8))
        let upload = Self.client(stub).transfer(
            Request<Data>(method: .post, path: "upload", body: .data(Data(count: 9))))
        var updates: [TransferProgress] = []
        for await update in upload.progress { updates.append(update) }
        let response = try await upload.value
        #expect(String(decoding: response.data, as: UTF8.self) == "stored")
        #expect(updates.last?.bytesReceived == 6)
        #expect(stub.requests.map(\.method) == [.post])
    }

    @Test("a failure is thrown as an ErrandError, readable without a cast")
    func failureIsTyped() async {
        let stub = StubTransport()
        stub.respond(to: "upload", status: 404, json: #"{"error":"gone"}"#)
        let upload = Self.client(stub).transfer(Request<Void>(method: .post, path: "upload"))
        do {
            _ = try await upload.value
            Issue.record("a 404 succeeded")
        } catch {
            let typed: ErrandError = error  // compiles only because `value` throws ErrandError
            #expect(typed.userMessage == "The server has no such resource (HTTP 404).")
            #expect(typed.status == 404)
        }
    }

    @Test("the value can be awaited again and gives the same outcome")
    func valueTwice() async throws {
        let stub = StubTransport()
        stub.respond(to: "text", body: Data("once".utf8))
        let transfer = Self.client(stub).transfer(Request<String>(path: "text"))
        #expect(try await transfer.value.value == "once")
        #expect(try await transfer.value.value == "once")
        #expect(stub.requests.count == 1)
    }

    @Test("cancel() stops a transfer in flight; value throws cancelled")
    func cancelStopsTheTransfer() async {
        let clock = ManualClock()
        let stub = StubTransport()
        stub.register(
            path: "slow",
            reply: .dynamic { _ in
                try await clock.sleep(until: clock.now.advanced(by: .seconds(3600)))
                throw ErrandError.transport(TransportFailure(kind: .other, underlying: "the clock was advanced"))
            })
        let transfer = Self.client(stub).transfer(Request<Data>(path: "slow"))
        await clock.sleepers(1)
        transfer.cancel()
        await Self.expectCancelled(transfer)
    }

    @Test("cancelling the task that awaits the value cancels the transfer")
    func cancellingTheWaiterCancelsTheTransfer() async {
        let clock = ManualClock()
        let stub = StubTransport()
        stub.register(
            path: "slow",
            reply: .dynamic { _ in
                try await clock.sleep(until: clock.now.advanced(by: .seconds(3600)))
                throw ErrandError.transport(TransportFailure(kind: .other, underlying: "the clock was advanced"))
            })
        let transfer = Self.client(stub).transfer(Request<Data>(path: "slow"))
        await clock.sleepers(1)
        let waiter = Task { await Self.expectCancelled(transfer) }
        waiter.cancel()
        await waiter.value
    }

    private static func expectCancelled(_ transfer: Transfer<Response<Data>>) async {
        do {
            _ = try await transfer.value
            Issue.record("a cancelled transfer succeeded")
        } catch {
            guard case .cancelled = error else {
                Issue.record("expected cancelled, got \(error.debugDescription)")
                return
            }
        }
    }
}
