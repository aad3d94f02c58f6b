import Foundation

/// A response as the cache keeps it, with what RFC 9111 needs to judge its freshness.
struct CachedResponse: Sendable {
    /// The primary key: the normalized request URL.
    let url: String
    /// The secondary key: the values of the request headers the response's `Vary` names.
    let variant: String
    /// The status code.
    let status: Int
    /// The stored header fields.
    let headers: HTTPHeaders
    /// The body, content-decoded.
    let body: Data
    /// When the request that produced this response was sent.
    let requestTime: Date
    /// When the response was received (or last revalidated).
    let responseTime: Date

    /// The stored header fields less `Age`, which is recomputed each time the entry is served.
    let headersWithoutAge: HTTPHeaders
    /// The parsed `Cache-Control` directives.
    let control: CacheControl
    /// The lower-cased field names `Vary` lists.
    let varyNames: [String]
    /// The lifetime the server stated (`max-age`, else `Expires` − `Date`), in seconds.
    let explicitLifetime: TimeInterval?
    /// The lifetime guessed from `Last-Modified` (10% of its age, at most a day) when none is stated.
    let heuristicLifetime: TimeInterval
    /// The age the response already had when it arrived (RFC 9111 §4.2.3).
    let correctedInitialAge: TimeInterval

    /// Builds an entry, computing its freshness inputs from the headers once.
    init(
        url: String, variant: String, status: Int, headers: HTTPHeaders, body: Data, requestTime: Date,
        responseTime: Date
    ) {
        self.url = url
        self.variant = variant
        self.status = status
        self.headers = headers
        self.body = body
        self.requestTime = requestTime
        self.responseTime = responseTime
        // One pass over the fields (names compared by length first): this runs for every entry read from disk.
        var withoutAge: [HTTPHeaders.Field] = []
        withoutAge.reserveCapacity(headers.count)
        var cacheControl: [String] = []
        var dateText, expiresText, lastModifiedText, ageText: String?
        var varyFields = HTTPHeaders()
        for field in headers {
            let length = field.name.utf8.count
            let name = length == 3 || length == 4 || length == 7 || length == 13 ? field.name.lowercased() : ""
            switch name {
            case "age": Self.combine(&ageText, field.value)
            case "date": Self.combine(&dateText, field.value)
            case "vary": varyFields.add(name: "Vary", value: field.value)
            case "expires": Self.combine(&expiresText, field.value)
            case "cache-control": cacheControl.append(field.value)
            case "last-modified": Self.combine(&lastModifiedText, field.value)
            default: break
            }
            if name != "age" { withoutAge.append(field) }
        }
        headersWithoutAge = HTTPHeaders(withoutAge)
        control = CacheControl(values: cacheControl)
        varyNames = varyFields.count == 0 ? [] : CacheKey.varyNames(varyFields)

        let date = dateText.flatMap { HTTPDate.parse($0, now: responseTime) } ?? responseTime
        if let maxAge = control.maxAge {
            explicitLifetime = TimeInterval(maxAge)
        } else if control.hasInvalidMaxAge {
            explicitLifetime = 0
        } else if let expiresText {
            // An Expires that is not a date (often "0" or "-1") means already expired (RFC 9111 §5.3).
            explicitLifetime =
                HTTPDate.parse(expiresText, now: responseTime).map { max(0, $0.timeIntervalSince(date)) } ?? 0
        } else {
            explicitLifetime = nil
        }
        if let lastModified = lastModifiedText.flatMap({ HTTPDate.parse($0, now: responseTime) }), lastModified < date {
            heuristicLifetime = min(date.timeIntervalSince(lastModified) / 10, 86_400)
        } else {
            heuristicLifetime = 0
        }
        let ageValue = ageText.flatMap(Self.ageSeconds).map(TimeInterval.init) ?? 0
        let apparentAge = max(0, responseTime.timeIntervalSince(date))
        let responseDelay = max(0, responseTime.timeIntervalSince(requestTime))
        correctedInitialAge = max(apparentAge, ageValue + responseDelay)
    }

    /// The seconds an `Age` field value states (RFC 9111 §5.1): a list's first member, which is the first line when
    /// the field came on several (the rest are discarded, as the RFC asks of a cache, so `7200, 0` is as old as
    /// `7200`); `nil` when that member is not one non-negative integer (`-7200`, `7200.0`, `abc`, `7200;a=1`), and
    /// the field is then ignored.
    static func ageSeconds(_ value: String) -> Int? {
        let utf8 = Substring(value).utf8
        let first = utf8.firstIndex(of: UInt8(ascii: ",")).map { utf8[..<$0] } ?? utf8[...]
        let isWhitespace = { (byte: UInt8) in byte == UInt8(ascii: " ") || byte == UInt8(ascii: "\t") }
        guard let start = first.firstIndex(where: { !isWhitespace($0) }),
            let end = first.lastIndex(where: { !isWhitespace($0) })
        else { return nil }
        return CacheControl.deltaSeconds(Substring(first[start...end]).utf8)
    }

    /// Adds a repeated line of a single-valued field as RFC 9110 §5.3 reads it, one value joined with a comma, so a
    /// field sent twice means the same whether a transport kept the lines apart (curl) or joined them (URLSession).
    /// Two dates joined are not a date, and are read as invalid; two ages joined are a list, read by its first member.
    private static func combine(_ text: inout String?, _ value: String) {
        text = text.map { $0 + ", " + value } ?? value
    }

    /// The entry's current age (RFC 9111 §4.2.3).
    func age(at now: Date) -> TimeInterval {
        correctedInitialAge + max(0, now.timeIntervalSince(responseTime))
    }

    /// The `Age` field value to serve the entry with: whole seconds, at most 2³¹−1 (RFC 9111 §1.2.2), whatever the
    /// stored times say (a damaged cache file may hold any number).
    func ageHeaderValue(at now: Date) -> String {
        let age = age(at: now)
        guard age.isFinite else { return String(Int32.max) }
        return String(Int(min(max(0, age), Double(Int32.max))))
    }

    /// How long the entry is fresh: the stated lifetime, else `fallbackLifetime` (the TTL override), else the
    /// heuristic.
    func lifetime(fallback fallbackLifetime: TimeInterval?) -> TimeInterval {
        explicitLifetime ?? fallbackLifetime ?? heuristicLifetime
    }

    /// Whether the entry may be served without asking the server.
    func isFresh(at now: Date, fallbackLifetime: TimeInterval?) -> Bool {
        !control.noCache && age(at: now) < lifetime(fallback: fallbackLifetime)
    }

    /// How long past its lifetime the entry is (zero while fresh).
    func staleness(at now: Date, fallbackLifetime: TimeInterval?) -> TimeInterval {
        max(0, age(at: now) - lifetime(fallback: fallbackLifetime))
    }

    /// Whether the server gave a validator to revalidate with.
    var hasValidator: Bool { headers.contains("ETag") || headers.contains("Last-Modified") }

    /// Whether this entry answers a request with these headers (its `Vary` fields match).
    func matches(_ requestHeaders: HTTPHeaders) -> Bool {
        varyNames.isEmpty
            ? variant.isEmpty : CacheKey.variant(names: varyNames, requestHeaders: requestHeaders) == variant
    }

    /// The entry after a 304 (or a HEAD response, RFC 9111 §4.3.5): stored fields replaced by those the new
    /// response carries (§3.2), times reset.
    func refreshed(with notModified: HTTPHeaders, requestTime: Date, responseTime: Date) -> CachedResponse {
        // These describe the stored body's framing, which a 304 does not change.
        let kept: Set<String> = ["content-length", "content-encoding", "transfer-encoding", "content-range"]
        var merged = headers
        var replaced = Set<String>()
        for field in Self.storedFields(of: notModified) where !kept.contains(field.name.lowercased()) {
            let name = field.name.lowercased()
            if replaced.insert(name).inserted { merged.remove(field.name) }
            merged.add(name: field.name, value: field.value)
        }
        return CachedResponse(
            url: url, variant: variant, status: status, headers: Self.storedFields(of: merged), body: body,
            requestTime: requestTime, responseTime: responseTime)
    }

    /// The bytes this entry costs in memory and on disk, roughly.
    var cost: Int {
        body.count + url.utf8.count + variant.utf8.count
            + headers.reduce(0) { $0 + $1.name.utf8.count + $1.value.utf8.count + 4 }
    }
}
