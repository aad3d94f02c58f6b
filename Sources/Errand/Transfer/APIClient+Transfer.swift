import Foundation

extension APIClient {
    /// Starts sending a request and decoding its JSON body, with its progress to read beside it.
    ///
    /// The same exchange as `send(_:progress:)`, in a shape that keeps ``ErrandError`` the thrown
    /// type: see ``Transfer``.
    public func transfer<Value: Decodable & Sendable>(
        _ request: Request<Value>, progress: TransferProgressStream = TransferProgressStream()
    ) -> Transfer<Response<Value>> {
        Transfer(progress: progress) { () async throws(ErrandError) in try await send(request, progress: progress) }
    }

    /// Starts sending a request whose raw body is the value, with its progress to read beside it.
    public func transfer(
        _ request: Request<Data>, progress: TransferProgressStream = TransferProgressStream()
    ) -> Transfer<Response<Data>> {
        Transfer(progress: progress) { () async throws(ErrandError) in try await send(request, progress: progress) }
    }

    /// Starts sending a request whose body, as text, is the value, with its progress to read beside it.
    public func transfer(
        _ request: Request<String>, progress: TransferProgressStream = TransferProgressStream()
    ) -> Transfer<Response<String>> {
        Transfer(progress: progress) { () async throws(ErrandError) in try await send(request, progress: progress) }
    }

    /// Starts sending a request whose body is ignored (an upload, say), with its progress to read beside it.
    public func transfer(
        _ request: Request<Void>, progress: TransferProgressStream = TransferProgressStream()
    ) -> Transfer<Response<Void>> {
        Transfer(progress: progress) { () async throws(ErrandError) in try await send(request, progress: progress) }
    }

    /// Starts a download to a file, with its progress to read beside it.
    ///
    /// ``download(_:to:resume:progress:)`` in a shape that keeps ``ErrandError`` the thrown type: see ``Transfer``.
    public func transfer(
        downloading request: Request<Data>, to destination: URL, resume: Bool = false,
        progress: TransferProgressStream = TransferProgressStream()
    ) -> Transfer<Download> {
        Transfer(progress: progress) { () async throws(ErrandError) in
            try await download(request, to: destination, resume: resume, progress: progress)
        }
    }
}
