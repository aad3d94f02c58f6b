import Foundation
import Synchronization

/// Receives one event per HTTP exchange: every transport attempt, and every answer the cache gives alone.
///
/// Events are delivered synchronously on the task that made the request: keep the work small, or hand it off.
public protocol ExchangeObserver: Sendable {
    /// Called when an exchange ends, successfully or not.
    func exchangeDidFinish(_ event: ExchangeEvent)
}

/// One finished exchange, with secrets already redacted.
public struct ExchangeEvent: Sendable {
    /// The method.
    public var method: HTTPMethod
    /// The URL with secret path segments and query values replaced by `***`.
    public var url: String
    /// The request headers with `Authorization`, `Cookie` and other secrets replaced by `***`.
    public var requestHeaders: HTTPHeaders
    /// The status, when a response arrived.
    public var status: Int?
    /// The failure, when there was one.
    public var error: ErrandError?
    /// How long the exchange took.
    public var duration: Duration
    /// Response body bytes received.
    public var bytesReceived: Int
    /// Request body bytes sent.
    public var bytesSent: Int
    /// Which attempt this was (1 for the first).
    public var attempt: Int
    /// Whether the client's retry policy sends the request again after this attempt: it failed (or was answered
    /// with a status the policy retries), and a retry is due. The last attempt of a request has `false`.
    public var willRetry = false
    /// How the cache took part.
    public var cacheStatus: CacheStatus
    /// The transport's metrics, when it measured them.
    public var metrics: TransferMetrics?
    /// When the exchange began, by the system's date.
    public var startDate: Date
    /// The request body as sent, a body in memory with its secrets masked by ``Redaction/redact(body:)``.
    public var requestBody: TransportBody
    /// The response headers, secret fields (`Set-Cookie`, …) masked; empty when no response arrived.
    public var responseHeaders: HTTPHeaders
    /// The response body when it was read whole (a buffered exchange or the cache's answer), with secrets masked by
    /// ``Redaction/redact(body:)``; `nil` for a streamed body (a download, an event stream), which observers never
    /// hold, and when no response arrived.
    public var responseBody: Data?
    /// The first bytes of a streamed body, masked as ``responseBody`` is, when an observer of Errand's own asked for
    /// them (``HARRecorder/streamedBodyLimit``); `nil` otherwise.
    var streamedBodyPrefix: Data?

    /// Creates an event.
    public init(
        method: HTTPMethod, url: String, requestHeaders: HTTPHeaders, status: Int?, error: ErrandError?,
        duration: Duration, bytesReceived: Int, bytesSent: Int, attempt: Int, cacheStatus: CacheStatus,
        metrics: TransferMetrics?, startDate: Date? = nil, requestBody: TransportBody = .none,
        responseHeaders: HTTPHeaders = [:], responseBody: Data? = nil
    ) {
        self.method = method
        self.url = url
        self.requestHeaders = requestHeaders
        self.status = status
        self.error = error
        self.duration = duration
        self.bytesReceived = bytesReceived
        self.bytesSent = bytesSent
        self.attempt = attempt
        self.cacheStatus = cacheStatus
        self.metrics = metrics
        self.startDate = startDate ?? Date(timeIntervalSinceNow: -Double(duration / .milliseconds(1)) / 1000)
        self.requestBody = requestBody
        self.responseHeaders = responseHeaders
        self.responseBody = responseBody
    }

    /// A one-line summary: `GET https://… 200 12ms cache=miss`.
    public var summary: String {
        let outcome = status.map(String.init) ?? "failed (\(error?.userMessage(in: "en") ?? "unknown error"))"
        let millis = Int((duration / .milliseconds(1)).rounded())
        let retry = attempt > 1 ? " attempt=\(attempt)" : ""
        return "\(method) \(url) \(outcome) \(millis)ms cache=\(cacheStatus.rawValue)\(retry)"
    }
}

/// An observer that calls a closure.
public struct ClosureObserver: ExchangeObserver {
    private let body: @Sendable (ExchangeEvent) -> Void

    /// Wraps a closure.
    public init(_ body: @escaping @Sendable (ExchangeEvent) -> Void) { self.body = body }

    /// Calls the closure.
    public func exchangeDidFinish(_ event: ExchangeEvent) { body(event) }
}

/// An observer that keeps every event, for tests and diagnostics.
public final class ExchangeRecorder: ExchangeObserver {
    private let storage = Mutex<[ExchangeEvent]>([])

    /// Creates an empty recorder.
    public init() {}

    /// Keeps the event.
    public func exchangeDidFinish(_ event: ExchangeEvent) { storage.withLock { $0.append(event) } }

    /// The events so far, in order of arrival.
    public var events: [ExchangeEvent] { storage.withLock { $0 } }
}
