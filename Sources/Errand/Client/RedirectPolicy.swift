import Foundation

/// How a client follows redirects: the rules its one redirect follower applies to every hop, on every transport.
///
/// The rules are the Fetch standard's, with the client's own security rules on top:
/// - 301, 302, 303, 307 and 308 with a `Location` are followed; any other status, and a 3xx without a `Location`
///   field, is the response.
/// - The `Location` is resolved against the URL of the hop that answered (RFC 3986: `target?x`, `../target`, `?q`
///   and `//host/path` all work). A `Location` that is present but empty (or only whitespace) resolves to that URL
///   itself, as Fetch parses the empty string, so it is followed like any other until ``maxRedirects`` ends it. Only
///   `http` and `https` locations are followed; `file:`, `data:` and anything else, or a location that is not a URL,
///   fail the request.
/// - 301 and 302 turn a POST into a GET, and 303 turns every method but HEAD into a GET; the body goes and so do the
///   fields that describe it (`Content-Type`, `Content-Length`, `Content-Encoding`, `Content-Language`,
///   `Content-Location`). Otherwise the method and the body are sent again as they were (bodies are replayable: data,
///   a file read again, a multipart body rebuilt from its parts).
/// - https never goes to plain http, and plain http goes only where ``plainHTTP`` permits: the same rule as the
///   first request's.
/// - `Authorization`, `Proxy-Authorization` and `Cookie` stay behind when the hop goes to another server
///   (``ServerIdentity``: another scheme, host or port), and so do the fields the request marks secret
///   (``TransportRequest/secrets``: an ``APIKey`` header, say).
/// - After ``maxRedirects`` hops, one more fails with ``TransportFailure/Kind/tooManyRedirects``.
public struct RedirectPolicy: Sendable, Hashable {
    /// The most redirects followed for one request; one more fails with ``TransportFailure/Kind/tooManyRedirects``.
    /// Zero returns the 3xx response itself.
    public var maxRedirects: Int
    /// Where a hop may use plain http. ``APIClient`` sets it from its base URL and
    /// ``ClientConfiguration/allowsInsecureHTTP``, so every hop obeys the rule the first request did.
    public var plainHTTP: PlainHTTPPolicy

    /// Creates a policy.
    public init(maxRedirects: Int = 10, plainHTTP: PlainHTTPPolicy = .loopback) {
        self.maxRedirects = maxRedirects
        self.plainHTTP = plainHTTP
    }

    /// The request fields that carry credentials, which a redirect to another server must not receive.
    static let credentialHeaders = ["Authorization", "Proxy-Authorization", "Cookie"]

    /// The fields that describe a request body, which go with it when a redirect drops the body (Fetch's
    /// "request-body-header names", and the length).
    static let bodyHeaders = [
        "Content-Type", "Content-Length", "Content-Encoding", "Content-Language", "Content-Location",
    ]

    /// Whether a status redirects when it carries a `Location`: 301, 302, 303, 307 and 308.
    static func redirects(_ status: Int) -> Bool {
        switch status {
        case 301, 302, 303, 307, 308: true
        default: false
        }
    }

    /// What the follower does with a response to `request`, after `followed` redirects.
    enum Decision: Sendable {
        /// The response is the answer.
        case deliver
        /// Send this request next.
        case follow(TransportRequest)
        /// The redirect is refused: fail the request.
        case refuse(TransportFailure)
    }

    /// Decides a response: deliver it, follow it with the next hop's request, or refuse it. Pure: no I/O.
    func decision(status: Int, headers: HTTPHeaders, for request: TransportRequest, followed: Int) -> Decision {
        guard Self.redirects(status), maxRedirects > 0 else { return .deliver }
        // Absent is "the response"; present is followed, empty too (Fetch: the empty string parsed against the URL
        // that answered is that URL).
        guard let field = headers["Location"] else { return .deliver }
        let location = field.trimmingCharacters(in: .whitespaces)
        guard let target = location.isEmpty ? request.url : URL(string: location, relativeTo: request.url)?.absoluteURL,
            let scheme = target.scheme?.lowercased()
        else {
            return .refuse(
                TransportFailure(
                    kind: .badResponse, url: request.url,
                    underlying: "a \(status) redirect to a Location that is not a URL"))
        }
        guard scheme == "http" || scheme == "https", ServerIdentity(target) != nil else {
            return .refuse(
                TransportFailure(
                    kind: .insecureRedirect, url: request.url,
                    underlying: "refused a redirect to a \(scheme): URL; only http and https locations are followed"))
        }
        guard followed < maxRedirects else {
            return .refuse(
                TransportFailure(
                    kind: .tooManyRedirects, url: request.url, underlying: "more than \(maxRedirects) redirects"))
        }
        if let refusal = refusal(from: request.url, to: target) { return .refuse(refusal) }
        return .follow(Self.hop(after: status, from: request, to: target))
    }

    /// The request a redirect with `status` from `request` to `target` leads to.
    static func hop(after status: Int, from request: TransportRequest, to target: URL) -> TransportRequest {
        var next = request
        next.url = target
        if !sameServer(request.url, target) {
            for name in credentialHeaders { next.headers.remove(name) }
            // A credential a middleware attached (an API key's header) is one too, whatever its name.
            for name in request.secrets.headerNames where next.headers.contains(name) { next.headers.remove(name) }
        }
        let becomesGet =
            switch status {
            case 303: request.method != .head && request.method != .get
            case 301, 302: request.method == .post
            default: false
            }
        if becomesGet {
            next.method = .get
            next.body = .none
            for name in bodyHeaders { next.headers.remove(name) }
        }
        return next
    }

    /// Why a redirect from `current` to `target` is refused, or `nil` when it may be followed: https anywhere; plain
    /// http only from plain http and where ``plainHTTP`` permits; nothing else.
    func refusal(from current: URL, to target: URL) -> TransportFailure? {
        let from = current.scheme?.lowercased()
        let to = target.scheme?.lowercased()
        if to == "https" { return nil }
        if to == "http", from == "http", plainHTTP.permitsHTTP(to: target) { return nil }
        let reason =
            to == "http" && from == "http"
            ? "refused a plain http redirect to \(target.host ?? "?"), which this client may not reach without encryption"
            : "refused redirect from \(from ?? "?") to \(to ?? "?")"
        return TransportFailure(kind: .insecureRedirect, url: current, underlying: reason)
    }

    /// Whether two URLs name the same server (``ServerIdentity``).
    static func sameServer(_ first: URL, _ second: URL) -> Bool {
        guard let one = ServerIdentity(first) else { return false }
        return one == ServerIdentity(second)
    }
}

/// The client's one redirect follower: sends each hop through `hop` (the transport, with observers reporting every
/// hop) and decides each answer by the request's ``TransportRequest/redirects``.
enum RedirectFollower {
    /// Sends `request` and follows its redirects; the answer's ``TransferMetrics/redirectCount`` counts them.
    static func send(
        _ request: TransportRequest, hop: (TransportRequest) async throws -> TransportResponse
    ) async throws -> TransportResponse {
        var response = try await hop(request)
        // Most responses are not redirects: one comparison and they are on their way.
        guard RedirectPolicy.redirects(response.status) else { return response }
        var current = request
        var followed = 0
        while true {
            switch current.redirects.decision(
                status: response.status, headers: response.headers, for: current, followed: followed)
            {
            case .deliver:
                response.metrics.redirectCount = followed
                return response
            case .refuse(let failure):
                throw ErrandError.transport(failure)
            case .follow(let next):
                // A redirect's own body is not wanted; dropping a streamed one ends its transfer.
                response.bodyStream = nil
                current = next
                followed += 1
                response = try await hop(current)
            }
        }
    }
}
