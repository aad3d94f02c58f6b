@testable import Errand
import Foundation
import Testing

/// The parser's memory bound: a cap on every line and every event, a skipped comment, a clamped `retry:`.
@Suite("Server-Sent Events: the parser's limits")
struct ServerSentEventLimitTests {
    static func cap(_ parser: ServerSentEventParser) -> Int? {
        guard case .bodyTooLarge(let limit)? = parser.failure else { return nil }
        return limit
    }

    @Test("a line of exactly the cap is read; one byte more stops the parser, after the events before it")
    func lineCap() {
        var parser = ServerSentEventParser(maxEventSize: 16)
        // "data:" and 11 bytes: a 16-byte line.
        #expect(parser.parse(Array("data:0123456789a\n\n".utf8)).map(\.data) == ["0123456789a"])
        #expect(parser.failure == nil)
        let events = parser.parse(Array("data: ok\n\ndata:0123456789ab\n\ndata: later\n\n".utf8))
        #expect(events.map(\.data) == ["ok"])
        #expect(Self.cap(parser) == 16)
        #expect(parser.parse(Array("data: ignored\n\n".utf8)).isEmpty)
    }

    @Test("data lines whose sum passes the cap stop the parser, however short each line", arguments: [1, 7, 1000])
    func eventCap(chunkSize: Int) {
        var parser = ServerSentEventParser(maxEventSize: 100)
        let bytes = Array(String(repeating: "data: 0123456789\n", count: 20).utf8)
        var events: [ServerSentEvent] = []
        for start in stride(from: 0, to: bytes.count, by: chunkSize) {
            events += parser.parse(bytes[start..<min(start + chunkSize, bytes.count)])
        }
        #expect(events.isEmpty)
        #expect(Self.cap(parser) == 100)
    }

    @Test("an event's size counts its data, the line feeds joining it and its type, and starts again at each event")
    func eventSizeCounting() {
        var parser = ServerSentEventParser(maxEventSize: 10)
        // 4 + 1 + 4 = 9 bytes of data, then a 1-byte type: exactly 10.
        #expect(parser.parse(Array("data:abcd\ndata:efgh\nevent:t\n\n".utf8)).map(\.data) == ["abcd\nefgh"])
        #expect(parser.parse(Array("data:01234\n\n".utf8)).map(\.data) == ["01234"])
        #expect(parser.failure == nil)
        _ = parser.parse(Array("event:xy\ndata:012345678\n\n".utf8))
        #expect(Self.cap(parser) == 10)
    }

    @Test("a comment line is skipped as it arrives, however long, and never stops the parser")
    func commentsAreNotHeld() {
        var parser = ServerSentEventParser(maxEventSize: 8)
        let comment = Array(":".utf8) + Array(repeating: UInt8(ascii: "c"), count: 100_000) + Array("\r\n".utf8)
        #expect(parser.parse(comment + Array("data: x\n\n".utf8)).map(\.data) == ["x"])
        #expect(parser.failure == nil)
    }

    @Test("reset starts a stopped parser again; the default cap is 1 MiB")
    func resetClearsTheFailure() {
        var parser = ServerSentEventParser(maxEventSize: 4)
        _ = parser.parse(Array("data: too long\n\n".utf8))
        #expect(Self.cap(parser) == 4)
        parser.reset()
        #expect(parser.failure == nil)
        #expect(parser.parse(Array("data\n\n".utf8)).map(\.data) == [""])
        #expect(ServerSentEventParser().maxEventSize == 1_048_576)
        #expect(ServerSentEventParser(maxEventSize: -3).maxEventSize == 1)
    }

    @Test(
        "retry of any length counts as at most a day; anything but digits is ignored",
        arguments: [
            ("9223372036854775807", Duration.seconds(86_400)),
            (String(repeating: "9", count: 400), .seconds(86_400)),
            ("86400001", .seconds(86_400)),
            ("86399999", .milliseconds(86_399_999)),
            ("0", .zero),
        ])
    func retryIsClamped(value: String, expected: Duration) {
        var parser = ServerSentEventParser()
        _ = parser.parse(Array("retry: \(value)\n\n".utf8))
        #expect(parser.reconnectionTime == expected)
        var signed = ServerSentEventParser()
        _ = signed.parse(Array("retry: +5\nretry: -5\nretry: 5 \n\n".utf8))
        #expect(signed.reconnectionTime == nil)
    }
}
