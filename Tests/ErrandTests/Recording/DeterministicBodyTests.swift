import Errand
import Foundation
import Synchronization
import TestSupport
import Testing

/// A JSON body is encoded once per request, keys sorted by default: what is sent, what `curlCommand` prints and what
/// a recording keeps are the same bytes.
@Suite("Deterministic JSON bodies")
struct DeterministicBodyTests {
    /// Keys a dictionary stores in an order of its own, different from one dictionary to the next.
    static let body: [String: Int] = Dictionary(uniqueKeysWithValues: (0..<40).map { ("key\($0)", $0) })

    static let sorted =
        "{"
        + (0..<40).map { "key\($0)" }.sorted().map { key in
            "\"\(key)\":\(key.dropFirst(3))"
        }.joined(separator: ",") + "}"

    @Test("by default the keys are sorted, so equal values are equal bytes")
    func sortedByDefault() throws {
        let client = APIClient(baseURL: URL(string: "https://example.com")!)
        let request = Request<Data>(method: .post, path: "x", body: .json(Self.body))
        guard case .data(let data) = try client.makeTransportRequest(request).body else {
            Issue.record("not a body in memory")
            return
        }
        #expect(String(decoding: data, as: UTF8.self) == Self.sorted)
        // Another dictionary with the same contents, built in another order.
        let rebuilt = Dictionary(uniqueKeysWithValues: Self.body.sorted { $0.key > $1.key })
        let again = Request<Data>(method: .post, path: "x", body: .json(rebuilt))
        guard case .data(let other) = try client.makeTransportRequest(again).body else { return }
        #expect(other == data)
    }

    @Test("with an encoder that does not sort, one request still has one set of bytes, encoded once")
    func encodedOnce() throws {
        let counter = EncodeCounter()
        var configuration = ClientConfiguration(baseURL: URL(string: "https://example.com")!)
        configuration.encoder = JSONEncoder()
        let client = APIClient(configuration: configuration)
        let request = Request<Data>(method: .post, path: "x", body: .json(counter))
        let built = try client.makeTransportRequest(request)
        _ = try client.curlCommand(for: request)
        _ = try client.makeTransportRequest(request)
        #expect(counter.count == 1, "built three times, encoded once")
        guard case .data = built.body else {
            Issue.record("not a body in memory")
            return
        }
    }

    @Test(
        "the bytes httpbin received are those curlCommand prints and the recording keeps",
        .enabled(if: TestServer.httpbin.isUsable))
    func sentPrintedRecorded() async throws {
        let file = try HARFiles.make("deterministic-body")
        let recorder = try HARRecorder(file: file)
        let client = APIClient(
            configuration: ClientConfiguration(baseURL: try TestServer.httpbin.url(), observers: [recorder]))
        let request = Request<Data>(method: .post, path: "anything", body: .json(Self.body))
        let command = try client.curlCommand(for: request)
        let echoed = try await client.send(request).data
        let received = try #require(
            (try JSONSerialization.jsonObject(with: echoed) as? [String: Any])?["data"] as? String)
        #expect(received == Self.sorted)
        #expect(command.contains("--data-binary '\(Self.sorted)'"), "\(command)")
        await recorder.flush()
        let entry = try #require(try HAR(contentsOf: file).log.entries.first)
        #expect(entry.request.postData?.text == received)
        #expect(entry.request.postData?.mimeType == "application/json")
        #expect(entry.request.bodySize == received.utf8.count)
    }
}

/// Counts how often it is encoded.
final class EncodeCounter: Encodable, Sendable {
    private let encodings = Mutex(0)
    var count: Int { encodings.withLock { $0 } }

    func encode(to encoder: any Encoder) throws {
        encodings.withLock { $0 += 1 }
        var container = encoder.singleValueContainer()
        try container.encode(["b": 1, "a": 2])
    }
}
