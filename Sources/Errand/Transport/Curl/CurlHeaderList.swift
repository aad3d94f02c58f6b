#if canImport(CCurl)
import CCurl

/// The request header lines an easy handle sends, kept with the handle and reused while requests carry the same
/// headers (a client sends the same configured headers with every request).
///
/// Building the list costs two allocations per line in libcurl plus the text of each line, every request. The list
/// is libcurl's `CURLOPT_HTTPHEADER` value, so it must live until the handle's transfer ends: it is replaced only
/// when the handle is configured for another request, and freed with the handle.
///
/// `@unchecked Sendable` because it belongs to one easy handle and is used under the same confinement: by the loop
/// thread of the transport that made the handle, alone.
final class CurlHeaderList: @unchecked Sendable {
    private var fields: HTTPHeaders?
    private var body: BodyKind = .none
    private(set) var list: UnsafeMutablePointer<curl_slist>?

    /// What a request sends as its body, as far as the header list depends on it.
    enum BodyKind: Equatable {
        /// No body.
        case none
        /// A body whose `Content-Type` is the request's own (or absent).
        case some
        /// A body, with libcurl's form `Content-Type` switched off.
        case withoutContentType
    }

    /// The list for `headers`, reused when it is the one built last.
    ///
    /// libcurl would add `Expect: 100-continue` to large bodies (a round trip of waiting) and, for
    /// ``BodyKind/withoutContentType``, a form `Content-Type` to a POST; neither is the caller's request, so the list
    /// switches them off.
    func list(for headers: HTTPHeaders, body: BodyKind) -> UnsafeMutablePointer<curl_slist>? {
        if let fields, fields == headers, self.body == body { return list }
        var built: UnsafeMutablePointer<curl_slist>?
        func append(_ line: String) {
            if let grown = curl_slist_append(built, line) { built = grown }
        }
        for field in headers {
            // "Name:" would remove a header libcurl adds; "Name;" is libcurl's way to send an empty value.
            append(field.value.isEmpty ? "\(field.name);" : "\(field.name): \(field.value)")
        }
        if !headers.contains("Accept-Encoding") { append("Accept-Encoding: \(ContentDecoder.acceptEncoding)") }
        // Every line costs libcurl work per request; these two only matter when there is a body.
        if body != .none, !headers.contains("Expect") { append("Expect:") }
        if body == .withoutContentType { append("Content-Type:") }
        free()
        list = built
        fields = headers
        self.body = body
        return built
    }

    /// Frees the list; the handle must not be running a transfer that uses it.
    func free() {
        if let list { curl_slist_free_all(list) }
        list = nil
        fields = nil
    }
}
#endif
