import Foundation

/// The one exchange every kind of transfer goes through: `send`, `stream`, `download`, `events` and uploads with
/// progress differ only in how they consume the body.
///
/// ```
/// open ─▶ build (URL, headers, body, security checks) ─▶ middleware (auth, keys, limits, retries, cache, …)
///      ─▶ redirect follower ─▶ transport, each hop reported to observers
///      ◀─ status checked, the error built, classified and redacted here, once
/// ```
extension APIClient {
    /// Runs a request through the middleware chain and the redirect follower, and checks its status.
    ///
    /// - Parameters:
    ///   - delivery: whether the body is read whole or handed over as it arrives (``TransportResponse/bodyStream``).
    ///   - checksStatus: whether a status the request does not accept fails here (downloads and event streams judge
    ///     the status themselves, and build their errors with ``failure(for:)``).
    ///   - adjust: changes the built request before it enters the chain (a download's `Accept`, an event stream's
    ///     `Last-Event-ID`, their timeouts).
    func open<Value>(
        _ request: Request<Value>, delivery: ResponseDelivery, checksStatus: Bool = true,
        adjust: (inout TransportRequest) -> Void = { _ in }
    ) async throws(ErrandError) -> TransportResponse {
        var built = try makeRedactedTransportRequest(request)
        built.delivery = delivery
        adjust(&built)
        var response: TransportResponse
        do {
            try Task.checkCancellation()
            response = try await pipeline(built)
        } catch {
            throw redacted(ErrandError(error))
        }
        // A body that fails as it arrives fails with an error redacted like the others.
        response.bodyStream = response.bodyStream?.redactingErrors(response.redaction(configuration.redaction))
        guard !checksStatus || request.acceptedStatusCodes.contains(response.status) else {
            throw await failure(for: response)
        }
        return response
    }

    /// Sends a request with a buffered body and decodes it.
    func send<Value: Sendable>(
        _ request: Request<Value>, decode: (TransportResponse) throws(ErrandError) -> Value
    ) async throws(ErrandError) -> Response<Value> {
        let started = ContinuousClock.now
        let response = try await open(request, delivery: .buffered)
        let value: Value
        do {
            value = try decode(response)
        } catch {
            // A body that does not decode is quoted in the error: one that echoes the request's secrets is masked.
            throw Self.redacted(error, response.redaction(configuration.redaction))
        }
        var metrics = response.metrics
        metrics.total = ContinuousClock.now - started
        return Response(
            value: value, status: response.status, headers: response.headers, url: response.url, data: response.body,
            metrics: metrics, cacheStatus: response.cacheStatus)
    }

    /// The error for a response whose status is not accepted: ``ErrandError/blocked(_:)`` for a 403 HTML page (bot
    /// protection), else ``ErrandError/unacceptableStatus(_:)``; with up to ``ClientConfiguration/maxErrorBodySize``
    /// bytes of the body (read from a streamed body, which is then dropped), secrets redacted, and the app's error
    /// when the configuration's hook makes one.
    func failure(for response: TransportResponse) async -> ErrandError {
        let limit = max(0, configuration.maxErrorBodySize)
        var body = response.body.count > limit ? Data(response.body.prefix(limit)) : response.body
        if let stream = response.bodyStream {
            body = (try? await stream.prefix(bytes: limit)) ?? Data()
        }
        // The request's own secrets (a query key a middleware appended, a token the body quotes) are masked too.
        let redaction = response.redaction(configuration.redaction)
        // The headers are kept for the caller to inspect (Retry-After, WWW-Authenticate), but `Set-Cookie` and the
        // other secret fields would be printed with the error; a body that echoes the request's secrets is masked
        // as the excerpts are.
        var failure = StatusFailure(
            status: response.status, headers: redaction.redact(response.headers), body: redaction.redact(body: body),
            url: URL(string: redaction.redact(response.url)))
        failure.appError = configuration.errorResponse?(failure)
        if response.status == 403,
            DecodingFailure.looksLikeHTML(contentType: response.headers["Content-Type"], excerpt: failure.bodyExcerpt)
        {
            return .blocked(failure)
        }
        return .unacceptableStatus(failure)
    }

    /// ``makeTransportRequest(_:)`` with secrets hidden in what it throws (a refused URL names the URL).
    func makeRedactedTransportRequest<Value>(_ request: Request<Value>) throws(ErrandError) -> TransportRequest {
        do {
            return try makeTransportRequest(request)
        } catch {
            throw redacted(error)
        }
    }

    /// Hides secrets in the URLs and texts an error carries.
    func redacted(_ error: ErrandError) -> ErrandError {
        Self.redacted(error, configuration.redaction)
    }

    static func redacted(_ error: ErrandError, _ redaction: Redaction) -> ErrandError {
        switch error {
        case .transport(var failure):
            failure.url = failure.url.flatMap { URL(string: redaction.redact($0)) }
            failure.underlying = redaction.redact(text: failure.underlying)
            return .transport(failure)
        case .insecureURL(let url):
            return .insecureURL(URL(string: redaction.redact(url)) ?? url)
        case .notCached(let url):
            return .notCached(URL(string: redaction.redact(url)) ?? url)
        case .invalidURL(let reason):
            return .invalidURL(redaction.redact(text: reason))
        case .invalidRequest(let reason):
            return .invalidRequest(redaction.redact(text: reason))
        case .unacceptableStatus(var failure):
            failure.url = failure.url.flatMap { URL(string: redaction.redact($0)) }
            return .unacceptableStatus(failure)
        case .blocked(var failure):
            failure.url = failure.url.flatMap { URL(string: redaction.redact($0)) }
            return .blocked(failure)
        case .decoding(var failure):
            failure.bodyExcerpt = redaction.redact(text: failure.bodyExcerpt)
            return .decoding(failure)
        default:
            return error
        }
    }

    // MARK: The chain

    /// The middleware chain ending in the redirect follower, which sends each hop to the transport — buffered or
    /// streamed, as the request asks — and reports each hop to the observers.
    static func makePipeline(_ configuration: ClientConfiguration) -> Middleware.Next {
        let transport = configuration.transport
        let context = MiddlewareContext(
            observers: configuration.observers, redaction: configuration.redaction, timeline: configuration.timeline)
        // Without observers there is nothing to report: no clock reads, closure or event per hop.
        let hop: @Sendable (TransportRequest) async throws -> TransportResponse
        if configuration.observers.isEmpty {
            hop = { request in try await transfer(request, over: transport) }
        } else {
            hop = { request in try await reportedTransfer(request, over: transport, configuration) }
        }
        // Cookies are set and sent per hop, so they sit between the follower and the wire.
        let wire =
            configuration.cookies.map { [CookieMiddleware(jar: $0)].chained(context: context, terminal: hop) } ?? hop
        return configuration.middleware.chained(context: context) { request in
            try await RedirectFollower.send(request, hop: wire)
        }
    }

    /// One hop on the wire.
    private static func transfer(_ request: TransportRequest, over transport: any Transport) async throws
        -> TransportResponse
    {
        switch request.delivery {
        case .buffered:
            return try await transport.send(request)
        case .streamed:
            let response = try await transport.stream(request)
            return TransportResponse(
                status: response.status, headers: response.headers, bodyStream: response.body, url: response.url)
        }
    }

    /// One hop on the wire, reported to the observers when it ends: a buffered one when its response is back, a
    /// streamed one when its body has ended (or failed, or was dropped).
    private static func reportedTransfer(
        _ request: TransportRequest, over transport: any Transport, _ configuration: ClientConfiguration
    ) async throws -> TransportResponse {
        let started = ContinuousClock.now
        var response: TransportResponse
        do {
            response = try await transfer(request, over: transport)
        } catch {
            report(
                configuration, request, response: nil, error: ErrandError(error), started: started,
                cacheStatus: request.reportedCacheStatus(for: nil))
            throw error
        }
        let cacheStatus = request.reportedCacheStatus(for: response)
        guard let stream = response.bodyStream else {
            report(configuration, request, response: response, error: nil, started: started, cacheStatus: cacheStatus)
            return response
        }
        let head = TransportResponse(
            status: response.status, headers: response.headers, url: response.url, metrics: response.metrics)
        let limit = configuration.observers.streamedBodyLimit
        let prefix = limit > 0 ? BodyPrefix(limit: limit) : nil
        response.bodyStream = (prefix.map(stream.keeping) ?? stream).onEnd { bytes, failure in
            var ended = head
            ended.metrics.bytesReceived = bytes
            // Dropping a body is how a reader says it has read enough: not a failure of the exchange.
            var failure = failure
            if case .cancelled = failure { failure = nil }
            report(
                configuration, request, response: ended, streamed: true, error: failure, started: started,
                cacheStatus: cacheStatus, streamedPrefix: prefix?.bytes)
        }
        return response
    }

    static func report(
        _ configuration: ClientConfiguration, _ request: TransportRequest, response: TransportResponse?,
        streamed: Bool = false, error: ErrandError?, started: ContinuousClock.Instant, cacheStatus: CacheStatus,
        streamedPrefix: Data? = nil
    ) {
        let metrics = response?.metrics
        let duration = ContinuousClock.now - started
        let willRetry =
            request.options[RetryOutlookKey.self].map { outlook in
                let outcome: Result<TransportResponse, ErrandError>? =
                    response.map { .success($0) } ?? error.map { .failure($0) }
                return outcome.flatMap(outlook.wait(after:)) != nil
            } ?? false
        func event(_ rules: Redaction) -> ExchangeEvent {
            let redaction = rules.covering(request)
            let echoes = redaction.including(secretsOf: request)
            var event = ExchangeEvent(
                method: request.method, url: redaction.redact(request.url),
                requestHeaders: redaction.redact(request.headers),
                status: response?.status, error: error.map { redacted($0, redaction) },
                duration: duration,
                bytesReceived: metrics?.bytesReceived ?? 0, bytesSent: metrics?.bytesSent ?? 0,
                attempt: request.options.attempt, cacheStatus: cacheStatus, metrics: metrics,
                requestBody: request.body.redacted(echoes),
                responseHeaders: response.map { echoes.maskingEchoes(in: $0.headers) } ?? [:],
                responseBody: streamed ? nil : response.map { echoes.redact(body: $0.body) })
            event.streamedBodyPrefix = streamedPrefix.map(echoes.redact(prefix:))
            event.willRetry = willRetry
            return event
        }
        configuration.observers.deliver(event(configuration.redaction)) { event(.revealing) }
    }
}

extension ByteStream {
    /// This stream, the ``ErrandError``s it throws redacted by `redaction`.
    func redactingErrors(_ redaction: Redaction) -> ByteStream {
        let next = makeAsyncIterator().nextChunk
        return ByteStream {
            do {
                return try await next()
            } catch let error as ErrandError {
                throw APIClient.redacted(error, redaction)
            }
        }
    }

    /// A stream of one chunk: a body already in memory.
    init(buffered data: Data) {
        let chunk = ChunkOnce(data)
        self.init { chunk.take() }
    }
}

extension TransportBody {
    /// The body as observers see it: bytes in memory with their secrets masked, a file or multipart body as it is
    /// (observers describe those rather than read them).
    func redacted(_ redaction: Redaction) -> TransportBody {
        guard case .data(let data) = self else { return self }
        return .data(redaction.redact(body: data))
    }
}
