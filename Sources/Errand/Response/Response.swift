import Foundation

/// A decoded response: the value, and what came with it.
public struct Response<Value: Sendable>: Sendable {
    /// The decoded body.
    public var value: Value
    /// The HTTP status code.
    public var status: Int
    /// The response headers.
    public var headers: HTTPHeaders
    /// The final URL, after redirects.
    public var url: URL
    /// The raw body bytes, as received (after content decoding).
    public var data: Data
    /// Timings and sizes; ``TransferMetrics/total`` covers the whole exchange, retries included.
    public var metrics: TransferMetrics
    /// How the cache took part.
    public var cacheStatus: CacheStatus

    /// Creates a response.
    public init(
        value: Value, status: Int, headers: HTTPHeaders, url: URL, data: Data, metrics: TransferMetrics,
        cacheStatus: CacheStatus
    ) {
        self.value = value
        self.status = status
        self.headers = headers
        self.url = url
        self.data = data
        self.metrics = metrics
        self.cacheStatus = cacheStatus
    }

    /// The same response with another value.
    public func map<Other: Sendable>(_ transform: (Value) throws -> Other) rethrows -> Response<Other> {
        Response<Other>(
            value: try transform(value), status: status, headers: headers, url: url, data: data, metrics: metrics,
            cacheStatus: cacheStatus)
    }
}
