import Foundation

/// One event of a `text/event-stream`, as the WHATWG HTML standard's event stream format defines it.
public struct ServerSentEvent: Sendable, Hashable {
    /// The last event ID when the event was dispatched: the latest `id:` field of the stream so far (it carries over to
    /// later events), `nil` while none was seen or after an empty `id:` reset it.
    public var id: String?
    /// The event type: the `event:` field, `message` when the event named none.
    public var event: String
    /// The `data:` fields' values joined with line feeds.
    public var data: String
    /// The reconnection time a `retry:` field of this event's block set, if one did.
    public var retry: Duration?

    /// Creates an event.
    public init(id: String? = nil, event: String = "message", data: String, retry: Duration? = nil) {
        self.id = id
        self.event = event
        self.data = data
        self.retry = retry
    }
}

/// Turns the bytes of an event stream into events, chunk by chunk, exactly as the WHATWG HTML standard's
/// "interpreting an event stream" says.
///
/// A leading byte order mark is dropped; lines end with CR, LF or CRLF (also when a CRLF is split between chunks);
/// lines starting with a colon are comments; `data` lines are joined with LF; `id` values containing NUL are ignored;
/// `retry` values other than ASCII digits are ignored; unknown fields are ignored; a block without data dispatches
/// nothing; and a block the stream ends in without a blank line is never dispatched. The last event ID and the
/// reconnection time survive ``reset()``, which starts a new connection's stream.
///
/// Memory is bounded by ``maxEventSize``: a line longer than that many bytes (its line break aside), or an event whose
/// data (line feeds included) and type add up to more, stops the parser with ``failure`` set to ``ErrandError/bodyTooLarge(limit:)``
/// naming the cap. Comment lines are skipped as they arrive, never held, so a server's keep-alive comments cost
/// nothing however long. A `retry:` longer than ``longestRetry`` counts as ``longestRetry``.
public struct ServerSentEventParser: Sendable {
    /// The default cap on an event's size and a line's length: 1 MiB.
    public static let defaultMaxEventSize = 1 << 20
    /// The longest reconnection time a `retry:` field can set: a day. Longer ones, and numbers of any length, count
    /// as a day, so that no server's number reaches arithmetic that could overflow.
    public static let longestRetry: Duration = .seconds(86_400)

    /// The last event ID: what a reconnection sends as `Last-Event-ID`. `nil` until an `id:` field set it, and after
    /// an empty one.
    public private(set) var lastEventID: String?
    /// The latest reconnection time a `retry:` field set.
    public private(set) var reconnectionTime: Duration?
    /// The most bytes a line or an event may hold.
    public let maxEventSize: Int
    /// Why the parser stopped: ``ErrandError/bodyTooLarge(limit:)`` once a line or an event went over
    /// ``maxEventSize``; `nil` while it reads. A stopped parser ignores every later byte, until ``reset()``.
    public private(set) var failure: ErrandError?

    private var line: [UInt8] = []
    private var inComment = false
    private var eventSize = 0
    private var afterCR = false
    private var atStreamStart = true
    private var data = ""
    private var hasData = false
    private var eventType = ""
    private var idBuffer: String?
    private var idBufferSet = false
    private var blockRetry: Duration?

    /// A parser at the start of a stream; `lastEventID` is where an earlier stream left off, if known. Values of
    /// `maxEventSize` below 1 count as 1.
    public init(lastEventID: String? = nil, maxEventSize: Int = Self.defaultMaxEventSize) {
        self.lastEventID = lastEventID
        self.maxEventSize = max(maxEventSize, 1)
    }

    /// Starts a new stream (a reconnection): the pending line and block are dropped; the last event ID and the
    /// reconnection time are kept.
    public mutating func reset() {
        line.removeAll(keepingCapacity: true)
        inComment = false
        eventSize = 0
        failure = nil
        afterCR = false
        atStreamStart = true
        data = ""
        hasData = false
        eventType = ""
        blockRetry = nil
        idBufferSet = false
    }

    /// Drops every buffer with its memory (the stream ended or was cancelled); the last event ID and the
    /// reconnection time are kept.
    mutating func releaseBuffers() {
        reset()
        line = []
        data = ""
        eventType = ""
    }

    /// Takes the next bytes of the stream; returns the events they complete, in order.
    public mutating func parse(_ bytes: some Sequence<UInt8>) -> [ServerSentEvent] {
        var events: [ServerSentEvent] = []
        for byte in bytes {
            guard failure == nil else { break }
            if atStreamStart {
                line.append(byte)
                // A BOM is EF BB BF; keep collecting until it is clear whether the stream starts with one.
                let bom: [UInt8] = [0xEF, 0xBB, 0xBF]
                if line.count <= 3, line[...].elementsEqual(bom.prefix(line.count)) {
                    if line.count == 3 {
                        line.removeAll(keepingCapacity: true)
                        atStreamStart = false
                    }
                    continue
                }
                atStreamStart = false
                let pending = line
                line.removeAll(keepingCapacity: true)
                for pendingByte in pending { take(pendingByte, into: &events) }
                continue
            }
            take(byte, into: &events)
        }
        return events
    }

    private mutating func take(_ byte: UInt8, into events: inout [ServerSentEvent]) {
        switch byte {
        case 0x0A:
            if afterCR {
                afterCR = false
                return
            }
            endLine(into: &events)
        case 0x0D:
            afterCR = true
            endLine(into: &events)
        default:
            afterCR = false
            if inComment { return }
            if line.isEmpty, byte == UInt8(ascii: ":") {
                inComment = true
                return
            }
            guard line.count < maxEventSize else {
                failure = .bodyTooLarge(limit: maxEventSize)
                return
            }
            line.append(byte)
        }
    }

    private mutating func endLine(into events: inout [ServerSentEvent]) {
        defer { line.removeAll(keepingCapacity: true) }
        if inComment {
            inComment = false
            return
        }
        if line.isEmpty {
            if let event = dispatch() { events.append(event) }
            return
        }
        let field: String
        let value: String
        if let colon = line.firstIndex(of: UInt8(ascii: ":")) {
            field = String(decoding: line[..<colon], as: UTF8.self)
            var start = line.index(after: colon)
            if start < line.endIndex, line[start] == UInt8(ascii: " ") { start = line.index(after: start) }
            value = String(decoding: line[start...], as: UTF8.self)
        } else {
            field = String(decoding: line, as: UTF8.self)
            value = ""
        }
        switch field {
        case "event":
            guard fits(value.utf8.count - eventType.utf8.count) else { return }
            eventType = value
        case "data":
            guard fits(value.utf8.count + (hasData ? 1 : 0)) else { return }
            if hasData { data.append("\n") }
            data.append(contentsOf: value)
            hasData = true
        case "id":
            guard !value.contains("\u{0}") else { return }
            idBuffer = value.isEmpty ? nil : value
            idBufferSet = true
        case "retry":
            let longest = Int64(Self.longestRetry.components.seconds) * 1000
            guard let milliseconds = ServerNumber.digits(value.utf8, clampedTo: longest) else { return }
            reconnectionTime = .milliseconds(milliseconds)
            blockRetry = reconnectionTime
        default:
            // Unknown fields are ignored.
            return
        }
    }

    /// Whether the block can grow by `bytes` and stay within ``maxEventSize``; stops the parser when it cannot.
    private mutating func fits(_ bytes: Int) -> Bool {
        guard eventSize + bytes <= maxEventSize else {
            failure = .bodyTooLarge(limit: maxEventSize)
            return false
        }
        eventSize += bytes
        return true
    }

    /// Dispatches the block a blank line ended, if it carried data.
    private mutating func dispatch() -> ServerSentEvent? {
        // The last event ID is set from the buffer at every dispatch, with or without data.
        if idBufferSet {
            lastEventID = idBuffer
            idBufferSet = false
        }
        defer {
            data = ""
            eventSize = 0
            hasData = false
            eventType = ""
            blockRetry = nil
        }
        guard hasData else { return nil }
        return ServerSentEvent(
            id: lastEventID, event: eventType.isEmpty ? "message" : eventType, data: data, retry: blockRetry)
    }
}
