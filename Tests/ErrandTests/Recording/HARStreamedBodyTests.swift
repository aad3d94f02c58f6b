import Errand
import Foundation
import TestSupport
import Testing

/// The first bytes of streamed bodies in a recording (``HARRecorder/streamedBodyLimit``): a download from nginx and
/// an event stream from the SSE server, over every transport.
@Suite("HAR streamed body cap")
struct HARStreamedBodyTests {
    static let cap = 65_536

    @Test(
        "a 5 MB download with a 64 KB cap records its first 64 KB, and the file on disk is whole",
        .enabled(if: TestServer.nginxHTTP.isUsable), arguments: TransportKind.allCases)
    func download(_ kind: TransportKind) async throws {
        let served = try DownloadTests.Served(size: 5_000_000)
        let file = try HARFiles.make("download-cap-\(kind)")
        let recorder = try HARRecorder(file: file, streamedBodyLimit: Self.cap)
        var configuration = ClientConfiguration(
            baseURL: try TestServer.nginxHTTP.url(), transport: kind.make(), observers: [recorder])
        configuration.timeout = .seconds(20)
        let destination = try DownloadTests.folder().appendingPathComponent("whole.bin")
        let download = try await APIClient(configuration: configuration).download(
            Request<Data>(url: try served.url()), to: destination)
        #expect(download.bytes == 5_000_000)
        #expect(try Data(contentsOf: destination) == served.contents, "the file on disk is whole")
        await recorder.flush()
        let entry = try #require(try HAR(contentsOf: file).log.entries.first)
        let content = entry.response.content
        #expect(content.size == 5_000_000)
        #expect(content.encoding == "base64", "random bytes are not text")
        #expect(Data(base64Encoded: content.text ?? "") == served.contents.prefix(Self.cap))
        #expect(content.comment == "truncated: the first 65536 of 5000000 bytes")
    }

    @Test(
        "an event stream records its first events on each connection, as text", .enabled(if: TestServer.sse.isUsable),
        arguments: TransportKind.allCases)
    func events(_ kind: TransportKind) async throws {
        let file = try HARFiles.make("events-cap-\(kind)")
        let recorder = try HARRecorder(file: file, streamedBodyLimit: 50)
        var configuration = ClientConfiguration(
            baseURL: try TestServer.sse.url(), transport: kind.make(), observers: [recorder])
        configuration.timeout = .seconds(20)
        let request = Request<Data>(
            path: "events/har-\(kind)-\(UUID())", query: [QueryItem("total", "6"), QueryItem("per_connection", "3")])
        let policy = ReconnectionPolicy(
            initialDelay: .milliseconds(20), minimumDelay: .milliseconds(10), jitter: false, maxConsecutiveFailures: 3)
        var received: [ServerSentEvent] = []
        for try await event in APIClient(configuration: configuration).events(request, reconnection: policy) {
            received.append(event)
        }
        #expect(received.map(\.data) == (1...6).map { "event \($0)" })
        await recorder.flush()
        let entries = try HAR(contentsOf: file).log.entries
        #expect(entries.map(\.response.status) == [200, 200, 204])
        for (entry, first) in zip(entries.prefix(2), [1, 4]) {
            let content = entry.response.content
            #expect(content.mimeType.hasPrefix("text/event-stream"))
            #expect(content.encoding == nil)
            let text = try #require(content.text)
            #expect(text.utf8.count == 50)
            #expect(text.hasPrefix("id: \(first)\nevent: tick\ndata: event \(first)\n\n"), "\(text)")
            #expect(content.size > 50)
            #expect(content.comment == "truncated: the first 50 of \(content.size) bytes")
        }
    }
}
