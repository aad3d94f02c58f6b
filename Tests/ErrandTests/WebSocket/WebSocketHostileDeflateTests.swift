#if canImport(CCurl)
import Errand
import ErrandTesting
import Foundation
import TestSupport
import Testing

@Suite(
    "WebSocket compression and handshake against a hostile server", .enabled(if: TestServer.webSocketHostile.isUsable))
struct WebSocketHostileDeflateTests {
    private struct Report: Decodable {
        var close: Int?
    }

    private func closeCode(_ key: String) async throws -> Int? {
        let client = try webSocketClient(.webSocketHostile)
        return try await client.send(Request<Report>(path: "/report", query: [QueryItem("key", key)])).value.close
    }

    private func open(
        _ path: String, query: [QueryItem] = [], options: WebSocketOptions = WebSocketOptions(),
        clock: any Clock<Duration> = ContinuousClock()
    ) async throws -> WebSocket {
        try await webSocketClient(.webSocketHostile, clock: clock).webSocket(
            Request(path: path, query: query), options: options)
    }

    private func failure(reading socket: WebSocket) async -> TransportFailure? {
        do {
            for try await _ in socket.messages {}
            return nil
        } catch {
            guard case .transport(let failure) = error else { return nil }
            return failure
        }
    }

    @Test(
        "a compressed frame the agreement does not allow, or that is not DEFLATE, fails with 1002",
        arguments: ["/rsv1-undeclined", "/rsv1-continuation", "/deflate-invalid"])
    func refusedFrames(path: String) async throws {
        let key = UUID().uuidString
        let socket = try await open(path, query: [QueryItem("key", key)])
        #expect(await socket.isCompressed == (path != "/rsv1-undeclined"))
        #expect(await failure(reading: socket)?.kind == .badResponse)
        #expect(try await closeCode(key) == 1002)
    }

    @Test("a deflate bomb (4 GiB of zeros in about 4 MB) fails with 1009 at the 1 MiB limit")
    func deflateBomb() async throws {
        let key = UUID().uuidString
        let socket = try await open(
            "/deflate-bomb", query: [QueryItem("key", key)], options: .init(maxMessageSize: 1 << 20))
        #expect(await socket.isCompressed)
        let failure = await failure(reading: socket)
        #expect(failure?.kind == .badResponse)
        #expect(failure?.underlying.contains("1009") == true)
        #expect(try await closeCode(key) == 1009)
    }

    @Test(
        "an extensions answer the client did not offer fails the handshake, naming the header",
        arguments: [
            ("permessage-deflate; client_max_window_bits", WebSocketCompression()),
            ("permessage-deflate; client_max_window_bits=14", WebSocketCompression(clientMaxWindowBits: 12)),
            ("permessage-deflate; server_max_window_bits=20", WebSocketCompression()),
            ("x-webkit-deflate-frame", WebSocketCompression()),
            ("permessage-deflate", nil),
        ] as [(String, WebSocketCompression?)])
    func refusedAnswers(answer: String, offer: WebSocketCompression?) async throws {
        let error = await #expect(throws: ErrandError.self) {
            _ = try await open(
                "/extension-answer", query: [QueryItem("value", answer)], options: .init(compression: offer))
        }
        guard case .transport(let failure) = error else {
            Issue.record("expected a transport failure, got \(String(describing: error))")
            return
        }
        #expect(failure.kind == .badResponse)
        #expect(failure.underlying.contains("Sec-WebSocket-Extensions"))
    }

    @Test("a server that accepts the connection and never answers the upgrade fails at the handshake timeout")
    func handshakeTimeout() async throws {
        let clock = ManualClock()
        let opening = Task {
            try await open("/no-answer", options: .init(handshakeTimeout: .seconds(5)), clock: clock)
        }
        await clock.sleepers(1)
        #expect(clock.nextDeadline == clock.now.advanced(by: .seconds(5)))
        clock.advance(by: .seconds(5))
        let error = await #expect(throws: ErrandError.self) { _ = try await opening.value }
        guard case .transport(let failure) = error else {
            Issue.record("expected a transport failure, got \(String(describing: error))")
            return
        }
        #expect(failure.kind == .timedOut)
        #expect(failure.underlying.contains("upgrade"))
    }
}
#endif
