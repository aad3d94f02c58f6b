import Foundation

/// The body of a request.
public struct RequestBody: Sendable {
    enum Content: Sendable {
        case data(Data)
        case file(URL)
        case json(EncodedJSON)
        case multipart(MultipartBody)
        case stream(BodyStream)
    }

    let content: Content
    /// The `Content-Type` sent with the body unless the request sets its own.
    public let contentType: String?

    /// Raw bytes with the given content type.
    public static func data(_ data: Data, contentType: String = "application/octet-stream") -> RequestBody {
        RequestBody(content: .data(data), contentType: contentType)
    }

    /// A UTF-8 text body.
    public static func text(_ text: String, contentType: String = "text/plain; charset=utf-8") -> RequestBody {
        RequestBody(content: .data(Data(text.utf8)), contentType: contentType)
    }

    /// An `Encodable` value encoded as JSON with the client's encoder (keys sorted by default:
    /// ``ClientConfiguration/defaultEncoder()``).
    ///
    /// It is encoded once, when a client first builds the request: the bytes sent, those of every retry, those
    /// ``APIClient/curlCommand(for:showingSecrets:)`` prints and those a recording keeps are the same bytes. Changing
    /// the encoder's settings after that does not encode the body again.
    public static func json<Value: Encodable & Sendable>(_ value: Value) -> RequestBody {
        RequestBody(
            content: .json(EncodedJSON { encoder in try encoder.encode(value) }), contentType: "application/json")
    }

    /// Form fields, `application/x-www-form-urlencoded`, in the given order and RFC 3986-encoded.
    public static func form(_ fields: [QueryItem]) -> RequestBody {
        RequestBody(
            content: .data(Data(URLBuilder.encodeForm(fields).utf8)),
            contentType: "application/x-www-form-urlencoded")
    }

    /// The contents of a file, streamed from disk by transports that can.
    public static func file(_ url: URL, contentType: String = "application/octet-stream") -> RequestBody {
        RequestBody(content: .file(url), contentType: contentType)
    }

    /// A `multipart/form-data` body (RFC 7578) of fields, files streamed from disk, and bytes in memory.
    ///
    /// Its `Content-Length` is computed before sending (file parts must be regular files). Its `Content-Type`, which
    /// names the boundary, replaces any the request or the client sets. How each transport sends it is in
    /// docs/Transports.md (on Linux, URLSession can only send it chunked).
    public static func multipart(_ parts: [MultipartPart]) -> RequestBody {
        let body = MultipartBody(parts: parts)
        return RequestBody(content: .multipart(body), contentType: body.contentType)
    }

    /// Bytes streamed from `chunks`, any `AsyncSequence` of byte chunks (`Data`, `[UInt8]`), sent as they come.
    ///
    /// With a `length`, it is sent as `Content-Length` and the sequence must yield exactly that many bytes; without
    /// one, HTTP/1.1 sends the body chunked (HTTP/2 frames it itself). The sequence is read a chunk or two ahead of the
    /// wire, so a long one is sent in bounded memory, and upload progress counts the bytes as they go. A sequence that
    /// throws stops the request with ``ErrandError/app(_:)`` carrying its error; one that yields more or fewer bytes
    /// than `length` stops it with ``ErrandError/invalidRequest(_:)``.
    ///
    /// A sequence can be read once, so the body is sent once: requests with it are not retried, and a 307 or 308
    /// redirect, which would send it again, fails. ``stream(length:contentType:makingChunks:)`` lifts that.
    public static func stream<Chunks: AsyncSequence & Sendable>(
        _ chunks: Chunks, length: Int? = nil, contentType: String = "application/octet-stream"
    ) -> RequestBody where Chunks.Element: DataProtocol {
        RequestBody(
            content: .stream(BodyStream(length: length, isReplayable: false) { chunks }), contentType: contentType)
    }

    /// Bytes streamed from a fresh sequence that `makingChunks` makes each time the body is sent: the first time,
    /// and again for a retry or a 307 or 308 redirect. Otherwise as ``stream(_:length:contentType:)``.
    public static func stream<Chunks: AsyncSequence & Sendable>(
        length: Int? = nil, contentType: String = "application/octet-stream",
        makingChunks: @escaping @Sendable () -> Chunks
    ) -> RequestBody where Chunks.Element: DataProtocol {
        RequestBody(
            content: .stream(BodyStream(length: length, isReplayable: true, makingChunks: makingChunks)),
            contentType: contentType)
    }
}
