@testable import Errand
import Foundation
import Testing

@Suite("Server-Sent Events: parsing (WHATWG HTML, interpreting an event stream)")
struct ServerSentEventParserTests {
    func parse(_ text: String, chunkSize: Int = .max) -> (events: [ServerSentEvent], parser: ServerSentEventParser) {
        var parser = ServerSentEventParser()
        var events: [ServerSentEvent] = []
        let bytes = Array(text.utf8)
        var start = 0
        while start < bytes.count {
            let end = min(bytes.count, start + min(chunkSize, bytes.count))
            events += parser.parse(bytes[start..<end])
            start = end
        }
        return (events, parser)
    }

    @Test("the standard's first example: a comment is ignored, two data lines join with LF")
    func stocksExample() {
        let (events, _) = parse("data: YHOO\ndata: +2\ndata: 10\n\n")
        #expect(events == [ServerSentEvent(data: "YHOO\n+2\n10")])
    }

    @Test("the standard's second example: id carries over, an empty id resets it")
    func idExample() {
        let text = ": test stream\n\ndata: first event\nid: 1\n\ndata:second event\nid\n\ndata:  third event\n\n"
        let (events, parser) = parse(text)
        #expect(
            events == [
                ServerSentEvent(id: "1", data: "first event"),
                ServerSentEvent(id: nil, data: "second event"),
                ServerSentEvent(id: nil, data: " third event"),
            ])
        #expect(parser.lastEventID == nil)
    }

    @Test("the standard's third example: `data` alone and `data:` are empty values; a block without data is nothing")
    func emptyDataExample() {
        let (events, _) = parse("data\n\ndata\ndata\n\ndata:")
        #expect(events == [ServerSentEvent(data: ""), ServerSentEvent(data: "\n")])
    }

    @Test("the standard's fourth example: one space after the colon is dropped, the rest kept")
    func spaceExample() {
        let (events, _) = parse("data:test\n\ndata: test\n\n")
        #expect(events == [ServerSentEvent(data: "test"), ServerSentEvent(data: "test")])
    }

    @Test("CR, LF and CRLF end lines, also when a CRLF is split between chunks", arguments: [1, 2, 3, 7, 1000])
    func lineEnds(chunkSize: Int) {
        let text = "event: a\r\ndata: 1\r\n\r\nevent: b\rdata: 2\r\rdata: 3\n\n"
        let (events, _) = parse(text, chunkSize: chunkSize)
        #expect(
            events == [
                ServerSentEvent(event: "a", data: "1"), ServerSentEvent(event: "b", data: "2"),
                ServerSentEvent(data: "3"),
            ])
    }

    @Test("a leading BOM is dropped once; a second one is part of the field name", arguments: [1, 2, 100])
    func byteOrderMark(chunkSize: Int) {
        let (events, _) = parse("\u{FEFF}data: a\n\n\u{FEFF}data: b\n\n", chunkSize: chunkSize)
        #expect(events == [ServerSentEvent(data: "a")])
        // Bytes that only begin like a BOM are kept.
        var parser = ServerSentEventParser()
        let kept = parser.parse([0xEF, 0xBB] + Array(":\ndata: y\n\n".utf8))
        #expect(kept == [ServerSentEvent(data: "y")])
    }

    @Test("a final block without a blank line is discarded")
    func finalBlockDiscarded() {
        let (events, _) = parse("data: kept\n\ndata: lost")
        #expect(events == [ServerSentEvent(data: "kept")])
    }

    @Test("retry takes ASCII digits only and sets the reconnection time")
    func retry() {
        let (events, parser) = parse("retry: 1500\ndata: a\n\nretry: 2s\ndata: b\n\nretry: -5\n\nretry\n\n")
        #expect(
            events == [
                ServerSentEvent(data: "a", retry: .milliseconds(1500)), ServerSentEvent(data: "b"),
            ])
        #expect(parser.reconnectionTime == .milliseconds(1500))
    }

    @Test("an id containing NUL is ignored; unknown fields and comments are ignored; event names the type")
    func fieldsAndComments() {
        let (events, parser) = parse("id: 5\n\nid: a\u{0}b\n: note\nfoo: bar\nevent: update\ndata: x\n\n")
        #expect(events == [ServerSentEvent(id: "5", event: "update", data: "x")])
        #expect(parser.lastEventID == "5")
    }

    @Test("the event type resets after each dispatch; a field name is case-sensitive")
    func typeResets() {
        let (events, _) = parse("event: first\ndata: 1\n\ndata: 2\n\nData: 3\n\n")
        #expect(events == [ServerSentEvent(event: "first", data: "1"), ServerSentEvent(data: "2")])
    }

    @Test("reset keeps the last event ID and the reconnection time, and drops a pending block")
    func reset() {
        var parser = ServerSentEventParser()
        _ = parser.parse(Array("id: 9\nretry: 10\ndata: a\n\ndata: half".utf8))
        parser.reset()
        let events = parser.parse(Array("data: b\n\n".utf8))
        #expect(events == [ServerSentEvent(id: "9", data: "b")])
        #expect(parser.lastEventID == "9")
        #expect(parser.reconnectionTime == .milliseconds(10))
    }

    @Test("UTF-8 split between chunks decodes whole; invalid bytes become U+FFFD", arguments: [1, 2, 1000])
    func utf8(chunkSize: Int) {
        let (events, _) = parse("data: Crème brûlée ☕️\n\n", chunkSize: chunkSize)
        #expect(events.first?.data == "Crème brûlée ☕️")
        var parser = ServerSentEventParser()
        let invalid = parser.parse([UInt8]("data: ".utf8) + [0xFF] + [UInt8]("\n\n".utf8))
        #expect(invalid.first?.data == "\u{FFFD}")
    }
}
