import Foundation

extension APIClient {
    /// Opens a WebSocket connection: the opening handshake is a request like any other, through the configured
    /// middleware (authentication, keys, limits, retries), the redirect policy and the observers, its errors
    /// redacted; the frames after it are RFC 6455's, read and written by Errand.
    ///
    /// `ws` and `wss` URLs are sent as `http` and `https` (the client's plain-HTTP policy applies as to any request).
    /// Extra handshake headers go in the request's headers; subprotocols, the message size limit and keep-alive
    /// pings in `options`.
    ///
    /// ```swift
    /// let socket = try await client.webSocket(Request(path: "/live"))
    /// try await socket.send(.text("hello"))
    /// for try await message in socket.messages { print(message) }
    /// ```
    ///
    /// - Throws: ``ErrandError/unacceptableStatus(_:)`` when the server answers with anything but 101;
    ///   ``ErrandError/transport(_:)`` (``TransportFailure/Kind/badResponse``) when its 101 is not a valid upgrade
    ///   (wrong `Sec-WebSocket-Accept`, a subprotocol not offered); ``ErrandError/invalidRequest(_:)`` when the
    ///   client's transport cannot open WebSocket connections.
    public func webSocket(_ request: Request<Void>, options: WebSocketOptions = WebSocketOptions())
        async throws(ErrandError) -> WebSocket
    {
        guard let connector = configuration.transport as? any WebSocketConnecting else {
            throw .invalidRequest("the client's transport cannot open WebSocket connections.")
        }
        var built = try makeRedactedTransportRequest(Self.httpRequest(request))
        let handshake = WebSocketHandshake(subprotocols: options.subprotocols, compression: options.compression)
        built.method = .get
        built.body = .none
        built.headers = handshake.headers(adding: built.headers)
        // Streamed: a connection has one reader, so the cache and coalescing pass it through.
        built.delivery = .streamed
        let handoff = WebSocketHandoff()
        built.options[WebSocketHandoffKey.self] = handoff
        built.options[WebSocketMessageLimitKey.self] = options.maxMessageSize
        let response: TransportResponse
        do {
            try Task.checkCancellation()
            response = try await Self.makeWebSocketPipeline(
                configuration, connector, handshakeTimeout: options.handshakeTimeout)(built)
        } catch {
            handoff.take()?.stream.close()
            throw redacted(ErrandError(error))
        }
        guard response.status == 101, let opened = handoff.take() else {
            handoff.take()?.stream.close()
            throw await failure(for: response)
        }
        let outcome: WebSocketHandshake.Outcome
        do {
            outcome = try handshake.check(status: response.status, headers: response.headers)
        } catch {
            opened.stream.close()
            throw Self.redacted(
                Self.handshakeError(error, url: response.url), response.redaction(configuration.redaction))
        }
        let socket = WebSocket(
            stream: opened.stream, received: opened.remainder, subprotocol: outcome.subprotocol,
            headers: response.headers, options: options, clock: configuration.clock, deflate: outcome.deflate)
        guard let socket else {
            opened.stream.close()
            throw Self.redacted(
                .transport(
                    TransportFailure(kind: .other, url: response.url, underlying: "zlib could not make its streams")),
                response.redaction(configuration.redaction))
        }
        return socket
    }

    /// The request with a `ws`/`wss` URL given as the `http`/`https` one the handshake is sent to.
    static func httpRequest(_ request: Request<Void>) -> Request<Void> {
        guard case .url(let url) = request.target,
            var components = URLComponents(url: url, resolvingAgainstBaseURL: false),
            let scheme = components.scheme?.lowercased(), scheme == "ws" || scheme == "wss"
        else { return request }
        components.scheme = scheme == "ws" ? "http" : "https"
        var copy = request
        copy.target = .url(components.url ?? url)
        return copy
    }

    static func handshakeError(_ failure: WebSocketHandshakeFailure, url: URL) -> ErrandError {
        switch failure {
        case .notUpgraded(let status):
            return .transport(
                TransportFailure(kind: .badResponse, url: url, underlying: "the server answered \(status), not 101"))
        case .invalidHeader(let name):
            return .transport(
                TransportFailure(
                    kind: .badResponse, url: url, underlying: "the WebSocket upgrade's \(name) header is not valid"))
        case .extensionRefused(let reason):
            return .transport(
                TransportFailure(
                    kind: .badResponse, url: url,
                    underlying: "the WebSocket upgrade's Sec-WebSocket-Extensions is not what was offered: \(reason)"))
        }
    }

    /// The middleware chain and the redirect follower, ending in a hop that opens a connection and sends the
    /// upgrade on it, reported to the observers like any hop.
    static func makeWebSocketPipeline(
        _ configuration: ClientConfiguration, _ connector: any WebSocketConnecting,
        handshakeTimeout: Duration = WebSocketOptions().handshakeTimeout
    ) -> Middleware.Next {
        let context = MiddlewareContext(
            observers: configuration.observers, redaction: configuration.redaction, timeline: configuration.timeline)
        let hop: @Sendable (TransportRequest) async throws -> TransportResponse = { request in
            let started = ContinuousClock.now
            do {
                let response = try await upgrade(
                    request, connector, within: handshakeTimeout, on: configuration.clock)
                report(configuration, request, response: response, error: nil, started: started, cacheStatus: .notUsed)
                return response
            } catch {
                report(
                    configuration, request, response: nil, error: ErrandError(error), started: started,
                    cacheStatus: .notUsed)
                throw error
            }
        }
        return configuration.middleware.chained(context: context) { request in
            try await RedirectFollower.send(request, hop: hop)
        }
    }

    /// One hop: connect, write the upgrade, read the head within `timeout` of the connection's opening. A 101
    /// leaves its connection in the request's handoff; any other answer closes it and carries what of the body came
    /// with the head.
    private static func upgrade(
        _ request: TransportRequest, _ connector: any WebSocketConnecting, within timeout: Duration,
        on clock: any Clock<Duration>
    ) async throws(ErrandError) -> TransportResponse {
        let started = ContinuousClock.now
        let stream = try await connector.connect(for: request)
        let head: WebSocketUpgradeHead.Response
        do {
            head = try await answer(to: request, on: stream, within: timeout, clock: clock)
        } catch {
            stream.close()
            throw error
        }
        let metrics = TransferMetrics(total: ContinuousClock.now - started, httpVersion: "1.1")
        guard head.status == 101, let handoff = request.options[WebSocketHandoffKey.self] else {
            stream.close()
            return TransportResponse(
                status: head.status, headers: head.headers, bodyStream: ByteStream(buffered: head.remainder),
                url: request.url, metrics: metrics)
        }
        handoff.put(.init(stream: stream, remainder: head.remainder))
        return TransportResponse(
            status: 101, headers: head.headers, bodyStream: ByteStream(buffered: Data()), url: request.url,
            metrics: metrics)
    }

    /// Writes the upgrade and reads the server's head, or fails with ``TransportFailure/Kind/timedOut`` when the
    /// clock passes `timeout` first (a server that accepts the connection and never answers).
    private static func answer(
        to request: TransportRequest, on stream: any WebSocketByteStream, within timeout: Duration,
        clock: any Clock<Duration>
    ) async throws(ErrandError) -> WebSocketUpgradeHead.Response {
        let url = request.url
        do {
            return try await withThrowingTaskGroup(of: WebSocketUpgradeHead.Response?.self) { group in
                group.addTask {
                    try await stream.write(WebSocketUpgradeHead.request(request))
                    return try await readHead(stream, url: url)
                }
                group.addTask {
                    try await clock.sleep(for: timeout)
                    return nil
                }
                defer { group.cancelAll() }
                guard let head = try await group.next() ?? nil else {
                    // Closed before the group waits for its tasks: a write the server is not taking then fails.
                    stream.close()
                    throw ErrandError.transport(
                        TransportFailure(
                            kind: .timedOut, url: url,
                            underlying: "the server did not answer the WebSocket upgrade within \(timeout)"))
                }
                return head
            }
        } catch {
            throw ErrandError(error)
        }
    }

    private static func readHead(_ stream: any WebSocketByteStream, url: URL) async throws(ErrandError)
        -> WebSocketUpgradeHead.Response
    {
        var received = Data()
        while true {
            let bytes = try await stream.read()
            guard !bytes.isEmpty else {
                throw .transport(
                    TransportFailure(kind: .connectionLost, url: url, underlying: "the server closed before answering"))
            }
            received.append(bytes)
            do {
                if let head = try WebSocketUpgradeHead.parse(received) { return head }
            } catch {
                throw .transport(
                    TransportFailure(
                        kind: .badResponse, url: url, underlying: "the upgrade's response head is not HTTP"))
            }
        }
    }
}
