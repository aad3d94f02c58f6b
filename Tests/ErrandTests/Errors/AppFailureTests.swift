import Errand
import Foundation
import TestSupport
import Testing

/// An error thrown by the app's own code inside the client (a response hook, a request adapter) is its own kind,
/// `ErrandError.app`, keeping the original error, worded as the app's failure rather than the network's.
@Suite("Errors of the app's own code", .enabled(if: TestServer.fault.isUsable))
struct AppFailureTests {
    struct QuotaExhausted: Error, Equatable {
        var left: Int
    }

    func client(_ kind: TransportKind, middleware: [any Middleware]) throws -> APIClient {
        var configuration = ClientConfiguration(
            baseURL: try TestServer.fault.url(), transport: kind.make(), middleware: middleware)
        configuration.timeout = .seconds(20)
        return APIClient(configuration: configuration)
    }

    func thrownError(_ client: APIClient, streamed: Bool) async -> ErrandError? {
        do throws(ErrandError) {
            let request = Request<Data>(path: "ok/app-failure-\(UUID())")
            if streamed { _ = try await client.stream(request) } else { _ = try await client.send(request) }
            return nil
        } catch {
            return error
        }
    }

    @Test(
        "a response hook's error arrives as .app with the original error, on send and stream",
        arguments: TransportKind.allCases, [false, true])
    func responseHook(kind: TransportKind, streamed: Bool) async throws {
        let hook = ResponseHook { _, _ in throw QuotaExhausted(left: 0) }
        let error = try #require(await thrownError(try client(kind, middleware: [hook]), streamed: streamed))
        guard case .app(let failure) = error else {
            Issue.record("expected .app, got \(error.debugDescription)")
            return
        }
        #expect(failure.underlying(as: QuotaExhausted.self) == QuotaExhausted(left: 0))
        #expect(error.userMessage == "Something in the app went wrong while making the request.")
        #expect(error.debugDescription.contains("QuotaExhausted"))
        #expect(!error.isTransport(.other))
    }

    @Test(
        "a request adapter's error arrives as .app too, and the request never goes out",
        arguments: TransportKind.allCases)
    func requestAdapter(kind: TransportKind) async throws {
        let adapter = RequestAdapter { _ in throw QuotaExhausted(left: 3) }
        let error = try #require(await thrownError(try client(kind, middleware: [adapter]), streamed: false))
        guard case .app(let failure) = error else {
            Issue.record("expected .app, got \(error.debugDescription)")
            return
        }
        #expect(failure.underlying(as: QuotaExhausted.self)?.left == 3)
    }

    @Test("cancellation and Errand's own errors keep their kinds when mapped")
    func mapping() {
        guard case .cancelled = ErrandError(CancellationError()) else {
            Issue.record("CancellationError did not map to .cancelled")
            return
        }
        let own = ErrandError.transport(TransportFailure(kind: .timedOut, underlying: "slow"))
        #expect(ErrandError(own).isTransport(.timedOut))
    }
}
