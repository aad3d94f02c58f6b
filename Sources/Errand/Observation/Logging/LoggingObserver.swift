/// An observer that logs every exchange as one line to a sink, at a level chosen by its outcome.
///
/// ```swift
/// configuration.observers.append(LoggingObserver(level: .info, sink: StandardErrorLogSink()))
/// // level=info method=GET url="https://api.example.com/v1/search?api_key=***" status=200 duration_ms=41.27
/// //   attempts=1 cache=miss bytes=5120        (one line, folded here)
/// ```
///
/// Every event is one line at every level, as `key=value` pairs (logfmt, ``LogFormat/keyValue``, the default) or as
/// one JSON object (``LogFormat/jsonLines``): a person reads it, a log tool parses it. Durations are numbers of
/// milliseconds under keys ending in `_ms`, sizes numbers of bytes; text with spaces or quotes is quoted and escaped,
/// so a multi-line error stays on its line.
///
/// Levels: a success is `info`, a 4xx `warning`, a failure or a 5xx `error`. An attempt that the client's retry
/// policy sends again (``ExchangeEvent/willRetry``) is a `warning` with `retrying=true`, whatever its outcome, so a
/// 503 that was retried and then answered is one `warning` and one `info` line, the success with its `attempts=2`;
/// only the last attempt of a request that failed is an `error`.
///
/// At `debug` each line also carries the redacted request headers and the transport's metrics: `dns_ms`,
/// `connect_ms`, `tls_ms`, `ttfb_ms`, `total_ms`, `bytes_sent`, `http`, `reused`, `redirects`, `remote`. What it logs
/// is the event observers receive, so the client's ``Redaction`` has already masked secret headers, query values and
/// path segments, and the failure is its `debugDescription`, built and redacted where every error is.
public struct LoggingObserver: ExchangeObserver {
    /// The least level written; lines below it are dropped before they are formatted.
    public var level: LogLevel
    /// How the lines are written.
    public var format: LogFormat
    /// Where the lines go.
    public var sink: any LogSink

    /// Logs exchanges at `level` and above to `sink`, in `format` (`key=value` pairs unless told otherwise).
    public init(level: LogLevel = .info, format: LogFormat = .keyValue, sink: any LogSink) {
        self.level = level
        self.format = format
        self.sink = sink
    }

    /// Writes the exchange's line when its level is at least ``level``.
    public func exchangeDidFinish(_ event: ExchangeEvent) {
        let eventLevel = Self.level(of: event)
        guard eventLevel >= level else { return }
        sink.write(Self.fields(of: event, level: eventLevel, detailed: level == .debug).line(format), level: eventLevel)
    }

    /// The level an exchange is logged at: by whether it is retried, then by its failure or its status.
    static func level(of event: ExchangeEvent) -> LogLevel {
        if event.willRetry { return .warning }
        guard event.error == nil, let status = event.status else { return .error }
        switch status {
        case 500...: return .error
        case 400..<500: return .warning
        default: return .info
        }
    }

    /// The fields of an exchange's line, in the order they are written.
    static func fields(of event: ExchangeEvent, level: LogLevel, detailed: Bool) -> LogFields {
        var fields = LogFields()
        fields.append("level", .text(level.description))
        fields.append("method", .text(event.method.rawValue))
        fields.append("url", .text(event.url))
        fields.append("status", event.status)
        fields.append("duration_ms", event.duration)
        fields.append("attempts", .integer(event.attempt))
        if event.willRetry { fields.append("retrying", .flag(true)) }
        fields.append("cache", .text(event.cacheStatus.rawValue))
        fields.append("bytes", .integer(event.bytesReceived))
        if let error = event.error { fields.append("error", .text(error.debugDescription)) }
        guard detailed else { return fields }
        if let metrics = event.metrics {
            fields.append("dns_ms", metrics.dns)
            fields.append("connect_ms", metrics.connect)
            fields.append("tls_ms", metrics.tls)
            fields.append("ttfb_ms", metrics.firstByte)
            fields.append("total_ms", metrics.total)
            fields.append("bytes_sent", .integer(metrics.bytesSent))
            fields.append("http", metrics.httpVersion)
            fields.append("reused", metrics.connectionReused)
            fields.append("redirects", .integer(metrics.redirectCount))
            if let address = metrics.remoteAddress {
                fields.append("remote", .text(address + (metrics.remotePort.map { ":\($0)" } ?? "")))
            }
        }
        fields.append("request_headers", .text(event.requestHeaders.description))
        return fields
    }
}
