import Foundation

extension HAR.Entry {
    /// The entry for one reported exchange, bodies above `bodyLimit` bytes cut there with a note.
    init(_ event: ExchangeEvent, bodyLimit: Int) {
        let url = URL(string: event.url)
        let httpVersion = event.metrics?.httpVersion.map { "HTTP/\($0)" } ?? "unknown"
        let requestHeaders = event.requestHeaders.fields.map { HAR.Pair(name: $0.name, value: $0.value) }
        var request = HAR.Request(
            method: event.method.rawValue, url: event.url, httpVersion: httpVersion,
            cookies: Self.cookies(requestHeader: event.requestHeaders.values(for: "Cookie")),
            headers: requestHeaders, queryString: url.map(Self.query) ?? [], bodySize: 0)
        let contentType = event.requestHeaders["Content-Type"] ?? ""
        switch event.requestBody {
        case .none:
            break
        case .data(let data):
            let body = HAR.Body(data, limit: bodyLimit)
            request.bodySize = data.count
            request.postData = HAR.PostData(
                mimeType: contentType, text: body.text, encoding: body.encoding, comment: body.comment)
        case .file(let file):
            request.bodySize = event.bytesSent > 0 ? event.bytesSent : -1
            request.postData = HAR.PostData(
                mimeType: contentType, text: nil, comment: "streamed from the file \(file.lastPathComponent)")
        case .multipart(let multipart):
            request.bodySize = event.bytesSent > 0 ? event.bytesSent : -1
            var postData = HAR.PostData(mimeType: contentType, text: nil, comment: "multipart parts, not their bytes")
            postData.params = multipart.parts.map {
                HAR.Param(name: $0.name, value: nil, fileName: $0.filename, contentType: $0.contentType)
            }
            request.postData = postData
        case .stream:
            request.bodySize = event.bytesSent > 0 ? event.bytesSent : -1
            request.postData = HAR.PostData(
                mimeType: contentType, text: nil, comment: "streamed from a sequence, not kept")
        }
        let timings = HAR.Timings(event.metrics, duration: event.duration)
        self.init(
            startedDateTime: Self.timestamp(event.startDate), time: Self.milliseconds(event.duration),
            request: request, response: HAR.Response(event, httpVersion: httpVersion, bodyLimit: bodyLimit),
            timings: timings, serverIPAddress: event.metrics?.remoteAddress,
            connection: event.metrics?.localPort.map(String.init))
        if event.cacheStatus != .notUsed { errandCache = event.cacheStatus.rawValue }
        if event.attempt > 1 { errandAttempt = event.attempt }
        errandError = event.error.map(\.debugDescription)
    }

    static func query(of url: URL) -> [HAR.Pair] {
        guard let query = URLComponents(url: url, resolvingAgainstBaseURL: true)?.percentEncodedQuery else {
            return []
        }
        return query.split(separator: "&").map { pair in
            let parts = pair.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
            let decode = { (text: Substring) in PercentEncoding.decode(String(text)) ?? String(text) }
            return HAR.Pair(name: decode(parts[0]), value: parts.count > 1 ? decode(parts[1]) : "")
        }
    }

    static func cookies(requestHeader values: [String]) -> [HAR.Pair] {
        values.filter { $0 != Redaction.mask }.flatMap { $0.split(separator: ";") }.compactMap { crumb in
            let parts = crumb.split(separator: "=", maxSplits: 1).map { $0.trimmingCharacters(in: .whitespaces) }
            guard let name = parts.first, !name.isEmpty else { return nil }
            return HAR.Pair(name: name, value: parts.count > 1 ? parts[1] : "")
        }
    }

    static func milliseconds(_ duration: Duration) -> Double {
        (duration / .microseconds(1)).rounded() / 1000
    }

    static func timestamp(_ date: Date) -> String {
        date.formatted(
            .iso8601.year().month().day().time(includingFractionalSeconds: true).timeZone(separator: .omitted))
    }
}

extension HAR.Response {
    init(_ event: ExchangeEvent, httpVersion: String, bodyLimit: Int) {
        let headers = event.responseHeaders
        let mimeType = headers["Content-Type"] ?? ""
        var content = HAR.Content(size: event.bytesReceived, mimeType: mimeType)
        if let data = event.responseBody {
            let body = HAR.Body(data, limit: bodyLimit)
            content = HAR.Content(
                size: data.count, mimeType: mimeType, text: body.text, encoding: body.encoding, comment: body.comment)
        } else if let prefix = event.streamedBodyPrefix, event.status != nil {
            let body = HAR.Body(prefix, limit: prefix.count)
            content = HAR.Content(
                size: event.bytesReceived, mimeType: mimeType, text: body.text, encoding: body.encoding,
                comment: HAR.Body.note(kept: body.keptBytes, of: event.bytesReceived))
        } else if event.status != nil {
            content.comment = "streamed: the body is not recorded"
        }
        self.init(
            status: event.status ?? 0, statusText: event.status.map(HTTPStatusText.phrase) ?? "",
            httpVersion: httpVersion,
            cookies: headers.values(for: "Set-Cookie").filter { $0 != Redaction.mask }.compactMap(
                HAR.Pair.init(setCookie:)),
            headers: headers.fields.map { HAR.Pair(name: $0.name, value: $0.value) }, content: content,
            redirectURL: (300..<400).contains(event.status ?? 0) ? headers["Location"] ?? "" : "",
            bodySize: event.status == nil ? -1 : event.bytesReceived)
    }
}

extension HAR.Pair {
    /// The name and value a `Set-Cookie` field sets (its attributes are not kept).
    init?(setCookie value: String) {
        let crumb = value.split(separator: ";", maxSplits: 1).first ?? ""
        let parts = crumb.split(separator: "=", maxSplits: 1).map { $0.trimmingCharacters(in: .whitespaces) }
        guard let name = parts.first, !name.isEmpty else { return nil }
        self.init(name: name, value: parts.count > 1 ? parts[1] : "")
    }
}

extension HAR.Timings {
    /// HAR's phases from the transport's metrics, which count each from the start of the transfer (as curl does):
    /// each phase is the step from the one before. Without metrics (the cache answered), all of it is waiting.
    init(_ metrics: TransferMetrics?, duration: Duration) {
        let total = HAR.Entry.milliseconds(metrics?.total ?? duration)
        guard let metrics else {
            self.init(send: 0, wait: total, receive: 0)
            return
        }
        let ms = { (value: Duration?) in value.map(HAR.Entry.milliseconds) }
        let dns = ms(metrics.dns)
        let connected = ms(metrics.connect)
        let secured = ms(metrics.tls)
        let firstByte = ms(metrics.firstByte)
        let ready = secured ?? connected ?? dns ?? 0
        self.init(
            dns: dns.map { max(0, $0) } ?? -1,
            connect: connected.map { max(0, (secured ?? $0) - (dns ?? 0)) } ?? -1,
            ssl: secured.map { max(0, $0 - (connected ?? 0)) } ?? -1,
            send: 0, wait: firstByte.map { max(0, $0 - ready) } ?? max(0, total - ready),
            receive: firstByte.map { max(0, total - $0) } ?? 0)
    }
}

extension HAR {
    /// A body as HAR holds it: UTF-8 text as it is, other bytes as base64, either cut at the limit with a note.
    struct Body {
        var text: String
        var encoding: String?
        var comment: String?
        /// How many of the body's bytes ``text`` holds.
        var keptBytes: Int

        init(_ data: Data, limit: Int) {
            // A cut through a character would turn a text body into base64: the cut moves back to a whole one.
            let kept = data.count > limit ? Data(data.prefix(max(0, limit))).endingOnWholeCharacter : data
            keptBytes = kept.count
            comment = Self.note(kept: kept.count, of: data.count)
            if let text = String(data: kept, encoding: .utf8) {
                self.text = text
            } else {
                text = kept.base64EncodedString()
                encoding = "base64"
            }
        }

        /// The note HAR's `comment` gives a body cut short, `nil` for a whole one.
        static func note(kept: Int, of size: Int) -> String? {
            kept < size ? "truncated: the first \(kept) of \(size) bytes" : nil
        }
    }
}
