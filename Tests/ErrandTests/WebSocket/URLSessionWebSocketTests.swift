import Errand
import Foundation
import Synchronization
import Testing
import TestSupport

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// URLSessionTransport's WebSocket against the `websockets` server.
///
/// On Linux this pins down what FoundationNetworking does, which the WebSocket article states: its WebSocket task
/// needs a libcurl with WebSocket support, and Debian 12's 7.88.1 has none, so the task fails at once. Should a
/// libcurl here gain it, the test fails and says so, and the article is to be updated.
@Suite("WebSocket over URLSessionTransport", .enabled(if: TestServer.webSocket.isUsable), .timeLimit(.minutes(1)))
struct URLSessionWebSocketTests {
    /// Counts the handshakes that pass through the middleware.
    private final class Counter: Middleware {
        let count = Mutex(0)
        func intercept(_ request: TransportRequest, context: MiddlewareContext, next: Middleware.Next) async throws
            -> TransportResponse
        {
            count.withLock { $0 += 1 }
            return try await next(request)
        }
    }

    #if canImport(FoundationNetworking)
    @Test("on Linux without a WebSocket libcurl, the handshake passes the middleware, then fails at once, clearly")
    func linuxWithoutWebSocketLibcurl() async throws {
        let counter = Counter()
        let recorder = ExchangeRecorder()
        let client = APIClient(
            configuration: ClientConfiguration(
                baseURL: try TestServer.webSocket.url(), transport: URLSessionTransport(), middleware: [counter],
                observers: [recorder]))
        do {
            let socket = try await client.webSocket(Request(path: "/echo"))
            try await socket.send(.text("hello"))
            var messages = socket.messages.makeAsyncIterator()
            #expect(try await messages.next() == .text("hello"))
            await socket.close()
            Issue.record("FoundationNetworking opened a WebSocket here: its libcurl speaks ws now; update the article")
        } catch {
            guard case .invalidRequest(let reason) = error else {
                Issue.record("not the clear failure expected: \(error)")
                return
            }
            #expect(reason.contains("no WebSocket support"))
            #expect(reason.contains("WebSockets not supported by libcurl"))
        }
        #expect(counter.count.withLock { $0 } == 1)
        #expect(recorder.events.count == 1)
        #expect(recorder.events.first?.error != nil)
    }
    #endif
}
