import Synchronization

/// Middleware that sends a bearer token and, when the server answers 401, refreshes it once for everyone.
///
/// Any number of requests that fail with 401 on the same token trigger ONE call of `refresh`; each of them is then
/// sent again, once, with the new token. A request that got 401 with a token already replaced just retries with the
/// current one. When `refresh` throws, every waiting request fails with that error (as an ``ErrandError``), and the
/// next 401 tries again.
///
/// The header is secret by construction, whatever its name: it is masked in every report of the request (see
/// ``TransportRequest/secrets``) and dropped on a redirect to another server.
///
/// ```swift
/// let auth = TokenRefreshMiddleware(token: savedToken) { rejected in
///     try await session.renew()   // returns the new token
/// }
/// ```
public final class TokenRefreshMiddleware: Middleware {
    /// Fetches a new token; receives the token the server rejected (`nil` when there was none).
    public typealias Refresh = @Sendable (_ rejected: String?) async throws -> String

    private struct State {
        var token: String?
        var refreshing: Task<String, any Error>?
        var refreshCount = 0
    }

    private let state: Mutex<State>
    private let refresh: Refresh
    private let headerName: String
    private let prefix: String

    /// Creates the middleware.
    ///
    /// - Parameters:
    ///   - token: the token to start with; `nil` sends the first requests without one.
    ///   - headerName: the header that carries the token. Default `Authorization`.
    ///   - prefix: written before the token. Default `Bearer `.
    ///   - refresh: fetches a new token.
    public init(
        token: String?, headerName: String = "Authorization", prefix: String = "Bearer ", refresh: @escaping Refresh
    ) {
        state = Mutex(State(token: token))
        self.refresh = refresh
        self.headerName = headerName
        self.prefix = prefix
    }

    /// The token in use now.
    public var token: String? { state.withLock { $0.token } }

    /// How many times `refresh` has been called.
    public var refreshCount: Int { state.withLock { $0.refreshCount } }

    /// Sends the request with the current token; on 401, refreshes (once for all concurrent 401s) and sends it again.
    public func intercept(_ request: TransportRequest, context: MiddlewareContext, next: @escaping Next) async throws
        -> TransportResponse
    {
        let used = token
        let response = try await next(authorized(request, with: used))
        guard response.status == 401 else { return response }
        let fresh = try await token(replacing: used)
        return try await next(authorized(request, with: fresh))
    }

    private func authorized(_ request: TransportRequest, with token: String?) -> TransportRequest {
        guard let token else { return request }
        var request = request
        request.setSecretHeader(headerName, to: prefix + token)
        return request
    }

    /// A token newer than `rejected`: the current one if someone already replaced it, else the result of the one
    /// refresh in progress, started here if none is.
    private func token(replacing rejected: String?) async throws -> String {
        let task: Task<String, any Error> = state.withLock { state in
            if let current = state.token, current != rejected {
                return Task { current }
            }
            if let refreshing = state.refreshing { return refreshing }
            state.refreshCount += 1
            let refreshing = Task { [refresh] in try await refresh(rejected) }
            state.refreshing = refreshing
            return refreshing
        }
        do {
            let fresh = try await task.value
            state.withLock { state in
                if state.refreshing == task {
                    state.token = fresh
                    state.refreshing = nil
                }
            }
            return fresh
        } catch {
            state.withLock { state in
                if state.refreshing == task { state.refreshing = nil }
            }
            throw ErrandError(error)
        }
    }
}
