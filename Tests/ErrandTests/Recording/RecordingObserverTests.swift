import Foundation
import Synchronization
import Testing

@testable import Errand

/// The pieces behind a recording's connection fields, its secrets on request and its streamed-body cap, without a
/// socket: the URLSession address mapping, the observer delivery, the body prefix and the entry built from an event.
@Suite("Recording observers")
struct RecordingObserverTests {
    /// An observer of Errand's own kind, asking for secrets or not.
    final class Asking: RecordingObserver {
        let receivesSecrets: Bool
        let streamedBodyLimit: Int
        private let seen = Mutex<[ExchangeEvent]>([])

        init(secrets: Bool, limit: Int = 0) {
            receivesSecrets = secrets
            streamedBodyLimit = limit
        }

        func exchangeDidFinish(_ event: ExchangeEvent) { seen.withLock { $0.append(event) } }
        var events: [ExchangeEvent] { seen.withLock { $0 } }
    }

    static func event(url: String) -> ExchangeEvent {
        ExchangeEvent(
            method: .get, url: url, requestHeaders: [:], status: 200, error: nil, duration: .milliseconds(3),
            bytesReceived: 0, bytesSent: 0, attempt: 1, cacheStatus: .notUsed, metrics: nil)
    }

    @Test("only an observer that asks is given the clear event, built once however many ask; the rest the masked one")
    func delivery() {
        let plain = ExchangeRecorder()
        let asking = Asking(secrets: true)
        let again = Asking(secrets: true)
        let declining = Asking(secrets: false)
        var builds = 0
        let observers: [any ExchangeObserver] = [plain, asking, declining, again]
        observers.deliver(Self.event(url: "masked")) {
            builds += 1
            return Self.event(url: "clear")
        }
        #expect(builds == 1)
        #expect(plain.events.map(\.url) == ["masked"])
        #expect(declining.events.map(\.url) == ["masked"])
        #expect(asking.events.map(\.url) == ["clear"])
        #expect(again.events.map(\.url) == ["clear"])
        let none: [any ExchangeObserver] = [plain]
        none.deliver(Self.event(url: "masked")) {
            Issue.record("the clear event is built only for an observer that asks")
            return Self.event(url: "clear")
        }
    }

    @Test("the streamed-body limit is the largest any observer asks for; a plain observer asks for none")
    func limit() {
        #expect([any ExchangeObserver]([ExchangeRecorder()]).streamedBodyLimit == 0)
        let observers: [any ExchangeObserver] = [
            Asking(secrets: false, limit: 10), ExchangeRecorder(), Asking(secrets: false, limit: 70),
        ]
        #expect(observers.streamedBodyLimit == 70)
    }

    @Test("revealing rules mask nothing; the client's rules mask the same request")
    func revealing() throws {
        let url = try #require(URL(string: "https://example.com/a?api_key=k-1234&q=1"))
        let headers: HTTPHeaders = ["Authorization": "Bearer t-1234", "Cookie": "sid=s-1234"]
        #expect(Redaction.revealing.redact(url) == url.absoluteString)
        #expect(Redaction.revealing.redact(headers) == headers)
        let rules = Redaction(queryNames: ["api_key"])
        #expect(!rules.redact(url).contains("k-1234"))
        #expect(rules.redact(headers)["Authorization"] == Redaction.mask)
    }

    @Test("a body prefix keeps at most its limit across chunks, and passes every chunk on whole")
    func prefix() async throws {
        let chunks = [Data(repeating: 1, count: 40), Data(repeating: 2, count: 40), Data(repeating: 3, count: 40)]
        let source = Mutex(chunks)
        let stream = ByteStream {
            source.withLock { $0.isEmpty ? nil : $0.removeFirst() }
        }
        let prefix = BodyPrefix(limit: 50)
        var read: [Data] = []
        for try await chunk in stream.keeping(prefix) { read.append(chunk) }
        #expect(read == chunks)
        #expect(prefix.bytes == Data(repeating: 1, count: 40) + Data(repeating: 2, count: 10))
    }

    @Test("a cut through a character moves back to a whole one; bytes that are not text stay as they are")
    func wholeCharacters() {
        let text = Data("naïve café".utf8)
        let cut = text.prefix(11)  // through the two bytes of é
        #expect(String(data: cut, encoding: .utf8) == nil)
        #expect(Data(cut).endingOnWholeCharacter == Data("naïve caf".utf8))
        let binary = Data([0xFF, 0xFE, 0x00, 0x80, 0x81])
        #expect(binary.endingOnWholeCharacter == binary)
        #expect(Data().endingOnWholeCharacter == Data())
    }

    @Test("a masked prefix cut through a character still has its secrets masked")
    func maskedPrefix() {
        var rules = Redaction()
        rules.pathSegments = ["s3cr3t-value"]
        let body = Data("{\"echo\": \"s3cr3t-value\", \"é\": 1}".utf8)
        let cut = Data(body.prefix(27))  // through the two bytes of é
        #expect(String(data: cut, encoding: .utf8) == nil)
        let masked = String(decoding: rules.redact(prefix: cut), as: UTF8.self)
        #expect(!masked.contains("s3cr3t-value"))
        #expect(masked.hasPrefix("{\"echo\": \"***\""))
    }

    @Test("an entry carries the server address and the connection's local port from the metrics")
    func entryFields() {
        var event = Self.event(url: "http://127.0.0.1:8080/a")
        event.metrics = TransferMetrics(remoteAddress: "127.0.0.1", remotePort: 8080, localPort: 51_234)
        let entry = HAR.Entry(event, bodyLimit: 100)
        #expect(entry.serverIPAddress == "127.0.0.1")
        #expect(entry.connection == "51234")
        let unknown = HAR.Entry(Self.event(url: "http://127.0.0.1:8080/a"), bodyLimit: 100)
        #expect(unknown.serverIPAddress == nil && unknown.connection == nil)
    }

    @Test("a streamed body's prefix is its content, with the truncation note; without one, only a note")
    func streamedContent() {
        var event = Self.event(url: "http://127.0.0.1/events")
        event.responseHeaders = ["Content-Type": "text/event-stream"]
        event.bytesReceived = 300
        event.streamedBodyPrefix = Data("data: one\n\n".utf8)
        let content = HAR.Entry(event, bodyLimit: 100).response.content
        #expect(content.text == "data: one\n\n")
        #expect(content.size == 300)
        #expect(content.comment == "truncated: the first 11 of 300 bytes")
        event.streamedBodyPrefix = nil
        #expect(HAR.Entry(event, bodyLimit: 100).response.content.comment == "streamed: the body is not recorded")
    }

    @Test("URLSession's addresses: Apple's numbers and FoundationNetworking's text become the same ports")
    func urlSessionAddress() {
        #expect(TransactionTimings.port(Int?(8443)) == 8443)
        #expect(TransactionTimings.port(String?("8443")) == 8443)
        #expect(TransactionTimings.port(String?("")) == nil)
        let timings = TransactionTimings(
            fetchStart: Date(), remoteAddress: "127.0.0.1", remotePort: 8443, localPort: 50_001)
        var metrics = TransferMetrics(remoteAddress: "kept?", localPort: 1)
        timings.apply(to: &metrics)
        #expect(metrics.remoteAddress == "127.0.0.1")
        #expect(metrics.remotePort == 8443)
        #expect(metrics.localPort == 50_001)
        var untouched = TransferMetrics(remoteAddress: "10.0.0.1")
        TransactionTimings(fetchStart: Date()).apply(to: &untouched)
        #expect(untouched.remoteAddress == "10.0.0.1", "what the transaction did not report stays")
    }
}
