extension CachedResponse {
    /// Fields that describe one connection, never a stored response (RFC 9111 §3.1, RFC 9110 §7.6.1).
    static let hopByHopFields: Set<String> = [
        "connection", "keep-alive", "proxy-connection", "te", "transfer-encoding", "upgrade",
    ]

    /// The fields of a response as the cache keeps them (RFC 9111 §3.1):
    ///
    /// - without the hop-by-hop fields and those `Connection` names, which a hit must not replay;
    /// - without the fields a qualified `no-cache="…"` names, which may not be reused without revalidation — the
    ///   rest of the response may, so it is stored and served without them;
    /// - each field that came on several lines as one line, its values joined with commas in order (RFC 9110 §5.3),
    ///   so that entries are the same whichever transport received them (URLSession on Linux joins them; curl keeps
    ///   them apart). `Set-Cookie`, whose values contain commas, keeps its lines.
    static func storedFields(of headers: HTTPHeaders) -> HTTPHeaders {
        var dropped = hopByHopFields
        for value in headers.values(for: "Connection") {
            for name in value.split(separator: ",") {
                dropped.insert(name.trimmingCharacters(in: .whitespaces).lowercased())
            }
        }
        dropped.formUnion(CacheControl(headers).noCacheFields)
        var fields: [HTTPHeaders.Field] = []
        fields.reserveCapacity(headers.count)
        var firstIndex: [String: Int] = [:]
        for field in headers {
            let name = field.name.lowercased()
            guard !dropped.contains(name) else { continue }
            if name != "set-cookie", let index = firstIndex[name] {
                fields[index].value += ", " + field.value
                continue
            }
            firstIndex[name] = fields.count
            fields.append(field)
        }
        return HTTPHeaders(fields)
    }
}
