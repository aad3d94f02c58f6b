import Foundation

/// The servers `scripts/test` starts, found through the environment variables it sets.
///
/// Use with Swift Testing: `@Test(.enabled(if: TestServer.httpbin.isUsable))`, then `let base = try TestServer.httpbin.url()`.
/// Outside CI a missing server disables the test (with the reason printed); with `CI=true` the test runs and fails.
public enum TestServer: String, Sendable, CaseIterable {
    /// httpbin, plain HTTP.
    case httpbin = "ERRAND_HTTPBIN_URL"
    /// nginx over TLS (throwaway CA in `ERRAND_TEST_CA`) with HTTP/2.
    case nginxHTTPS = "ERRAND_NGINX_HTTPS_URL"
    /// nginx over plain HTTP.
    case nginxHTTP = "ERRAND_NGINX_HTTP_URL"
    /// The project's fault server (Tests/Servers/fault_server.py).
    case fault = "ERRAND_FAULT_URL"
    /// The project's replica of TheMealDB and The Met (Tests/Servers/replica.py).
    case replica = "ERRAND_REPLICA_URL"
    /// The project's upload server, which echoes what it saw of each multipart part (Tests/Servers/upload_server.py).
    case upload = "ERRAND_UPLOAD_URL"
    /// The project's Server-Sent Events server (Tests/Servers/sse_server.py).
    case sse = "ERRAND_SSE_URL"
    /// The project's cookie server, which sets cookies as told and echoes the `Cookie` field it received
    /// (Tests/Servers/cookie_server.py).
    case cookie = "ERRAND_COOKIE_URL"
    /// A WebSocket server built on the `websockets` package (Tests/Servers/ws_server.py).
    case webSocket = "ERRAND_WS_URL"
    /// The raw-socket WebSocket server that breaks the protocol on purpose (Tests/Servers/ws_hostile.py).
    case webSocketHostile = "ERRAND_WS_HOSTILE_URL"
    /// The `websockets` server over TLS (wss), with a certificate of the throwaway CA in `ERRAND_TEST_CA`.
    case webSocketTLS = "ERRAND_WSS_URL"

    /// Whether this run is CI (`CI=true`), where no server-backed test may be skipped.
    public static var isCI: Bool {
        let value = ProcessInfo.processInfo.environment["CI"]?.lowercased() ?? ""
        return value == "true" || value == "1"
    }

    /// The server's base URL, if `scripts/test` started it.
    public var baseURL: URL? {
        ProcessInfo.processInfo.environment[rawValue].flatMap { $0.isEmpty ? nil : URL(string: $0) }
    }

    /// Whether a test needing this server should run: the server is there, or this is CI (where absence fails).
    public var isUsable: Bool {
        if baseURL != nil || Self.isCI { return true }
        print("skipping: \(rawValue) is not set; run the tests with scripts/test to start the servers")
        return false
    }

    /// The server's base URL, or an error saying it is missing.
    public func url() throws -> URL {
        guard let url = baseURL else { throw Missing(variable: rawValue) }
        return url
    }

    /// The throwaway CA that signed nginx's certificate.
    public static var certificateAuthority: URL? {
        ProcessInfo.processInfo.environment["ERRAND_TEST_CA"].map { URL(fileURLWithPath: $0) }
    }

    /// An environment value `scripts/test` set (`ERRAND_TEST_PIN`, `SERVERS_STATE`, …).
    public static func environment(_ name: String) -> String? {
        ProcessInfo.processInfo.environment[name]
    }

    /// A server the test needs is not running.
    public struct Missing: Error, CustomStringConvertible {
        /// The variable that was not set.
        public let variable: String
        /// Says which variable is missing.
        public var description: String { "\(variable) is not set: run the tests with scripts/test" }
    }
}
