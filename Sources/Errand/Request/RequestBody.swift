import Foundation

/// The body of a request.
public struct RequestBody: Sendable {
    enum Content: Sendable {
        case data(Data)
        case file(URL)
        case json(EncodedJSON)
        case multipart(MultipartBody)
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
}
