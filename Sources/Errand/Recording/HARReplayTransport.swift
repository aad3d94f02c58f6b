import Foundation
import Synchronization

/// A transport that answers from a HAR file instead of the network: a recording made by ``HARRecorder``, or one
/// exported from a browser's developer tools or a proxy.
///
/// ```swift
/// let replay = try HARReplayTransport(file: URL(fileURLWithPath: "session.har"))
/// let client = APIClient(configuration: ClientConfiguration(baseURL: base, transport: replay))
/// ```
///
/// A request is answered by the first recorded exchange it matches (``HARMatching``: method, URL, body) that has
/// not answered yet, so repeated requests get their recorded answers in order. When none matches, a strict replay
/// (no `fallback`) fails with ``TransportFailure/Kind/notRecorded``, naming the closest entry and how it differs;
/// a lenient one sends the request to `fallback`. Since recordings hold masked URLs (see ``HARRecorder``), each
/// request is compared as `redaction` would mask it: give the replay the rules of the client that recorded.
///
/// The recorded body is the decoded one, so `Content-Encoding` and `Content-Length` are not replayed; every
/// other header is, redirects included (the client follows them to the next recorded hop). Like any transport it
/// sits below the middleware: the cache, retries and limits run as they would against the network.
///
/// A recording is as untrusted as the network: a recorded answer is held to what a transport accepts from the wire
/// before the client sees it. A body over the request's ``TransportRequest/maxResponseBodySize`` fails with
/// ``ErrandError/bodyTooLarge(limit:)``, as it would live; a status outside 100–599, a field name that is not a
/// token, or a field value with a line break or a NUL byte fails as a ``TransportFailure/Kind/badResponse``
/// naming the entry. An answer from the recording waits for nothing, so it is always within the request's timeouts;
/// the fallback enforces its own.
public final class HARReplayTransport: Transport {
    private let cursor: Mutex<HARReplayCursor>
    private let fallback: (any Transport)?

    /// A replay of an archive.
    ///
    /// - Parameters:
    ///   - har: the recorded exchanges.
    ///   - matching: which parts of a request must equal a recorded one.
    ///   - redaction: the rules of the client that recorded, so that requests compare as the file shows them.
    ///   - fallback: where requests the recording does not hold go; `nil` (strict) fails them.
    public init(
        _ har: HAR, matching: HARMatching = HARMatching(), redaction: Redaction = Redaction(),
        fallback: (any Transport)? = nil
    ) {
        cursor = Mutex(HARReplayCursor(har, matching: matching, redaction: redaction))
        self.fallback = fallback
    }

    /// A replay of a HAR file of at most `maxFileSize` bytes (see ``HAR/init(contentsOf:maxFileSize:)``).
    ///
    /// - Throws: ``HARFileError`` for a file that cannot be read or is larger than `maxFileSize`, or `DecodingError`
    ///   for a file that is not a HAR archive.
    public convenience init(
        file: URL, matching: HARMatching = HARMatching(), redaction: Redaction = Redaction(),
        fallback: (any Transport)? = nil, maxFileSize: Int = HAR.defaultMaxFileSize
    ) throws {
        self.init(
            try HAR(contentsOf: file, maxFileSize: maxFileSize), matching: matching, redaction: redaction,
            fallback: fallback)
    }

    /// Answers from the recording, or from the fallback.
    public func send(_ request: TransportRequest) async throws -> TransportResponse {
        switch cursor.withLock({ $0.answer(request) }) {
        case .answer(let entry, let index):
            return try Self.response(entry, index: index, for: request)
        case .mismatch(let reason):
            guard let fallback else {
                throw ErrandError.transport(TransportFailure(kind: .notRecorded, url: request.url, underlying: reason))
            }
            return try await fallback.send(request)
        }
    }

    /// Answers from the recording as one chunk, or streams from the fallback.
    public func stream(_ request: TransportRequest) async throws -> StreamingResponse {
        switch cursor.withLock({ $0.answer(request) }) {
        case .answer(let entry, let index):
            let response = try Self.response(entry, index: index, for: request)
            return StreamingResponse(
                status: response.status, headers: response.headers, url: response.url,
                body: ByteStream(buffered: response.body))
        case .mismatch(let reason):
            guard let fallback else {
                throw ErrandError.transport(TransportFailure(kind: .notRecorded, url: request.url, underlying: reason))
            }
            return try await fallback.stream(request)
        }
    }

    /// The recorded fields that describe the bytes on the wire, not the decoded body a recording holds.
    private static let wireFields: Set<String> = ["content-encoding", "content-length", "transfer-encoding"]

    /// The recorded answer as a transport would hand it up, after the checks a received response passes.
    private static func response(_ entry: HAR.Entry, index: Int, for request: TransportRequest) throws
        -> TransportResponse
    {
        let recorded = entry.response
        let fields = recorded.headers.filter { !wireFields.contains($0.name.lowercased()) }.map {
            HTTPHeaders.Field(name: $0.name, value: $0.value)
        }
        if let problem = StoredResponseCheck.problem(status: recorded.status, headers: fields) {
            throw ErrandError.transport(
                TransportFailure(
                    kind: .badResponse, url: request.url,
                    underlying: "entry \(index + 1) of the recording cannot be a response: \(problem)"))
        }
        let body = try recorded.content.bytes(upTo: request.maxResponseBodySize)
        let version = recorded.httpVersion.hasPrefix("HTTP/") ? String(recorded.httpVersion.dropFirst(5)) : nil
        return TransportResponse(
            status: recorded.status, headers: HTTPHeaders(fields), body: body, url: request.url,
            metrics: TransferMetrics(
                bytesReceived: body.count, httpVersion: version, remoteAddress: entry.serverIPAddress))
    }
}
