import Foundation

extension APIClient {
    /// Sends a request, reporting its upload and download progress to `progress`, and decodes the JSON body.
    ///
    /// ```swift
    /// let progress = TransferProgressStream()
    /// async let response = client.send(upload, progress: progress)
    /// for await update in progress { print(update.bytesSent, "of", update.totalBytesToSend ?? 0) }
    /// let created = try await response.value
    /// ```
    ///
    /// The stream ends when the call returns or throws; after a success its last element has the final counts and
    /// totals, counted as the updates before it were (wire bytes: a gzip body's compressed size). Retries and
    /// redirects never make the counts go back. An answer from the cache, or a transfer shared by coalescing
    /// middleware, reports only its final counts, the response's. A stream made without a clock measures its
    /// interval on the client's (``ClientConfiguration/clock``).
    public func send<Value: Decodable & Sendable>(
        _ request: Request<Value>, progress: TransferProgressStream
    ) async throws(ErrandError) -> Response<Value> {
        try await withProgress(request, progress) { request throws(ErrandError) in try await send(request) }
    }

    /// Sends a request, reporting its progress to `progress`, and returns the raw body.
    public func send(_ request: Request<Data>, progress: TransferProgressStream) async throws(ErrandError) -> Response<
        Data
    > {
        try await withProgress(request, progress) { request throws(ErrandError) in try await send(request) }
    }

    /// Sends a request, reporting its progress to `progress`, and returns the body as text.
    public func send(_ request: Request<String>, progress: TransferProgressStream) async throws(ErrandError)
        -> Response<String>
    {
        try await withProgress(request, progress) { request throws(ErrandError) in try await send(request) }
    }

    /// Sends a request, reporting its progress to `progress`, and ignores the body.
    public func send(_ request: Request<Void>, progress: TransferProgressStream) async throws(ErrandError) -> Response<
        Void
    > {
        try await withProgress(request, progress) { request throws(ErrandError) in try await send(request) }
    }

    private func withProgress<Value>(
        _ request: Request<Value>, _ progress: TransferProgressStream,
        _ send: (Request<Value>) async throws(ErrandError) -> Response<Value>
    ) async throws(ErrandError) -> Response<Value> {
        var watched = request
        watched.options.progress = progress
        progress.adopt(configuration.timeline)
        do {
            let response = try await send(watched)
            progress.finish(
                completing: TransferProgress(
                    bytesSent: Int64(response.metrics.bytesSent), bytesReceived: Int64(response.data.count)))
            return response
        } catch {
            progress.finish()
            throw error
        }
    }
}
