import Foundation

/// Which proxy, if any, each request goes through: one for `http` URLs, one for `https` URLs, and the hosts reached
/// directly.
///
/// Both transports take the same settings and agree on every request's route, because the choice is made here, in
/// Swift, and handed to the transport whole (libcurl is never left to read the environment by itself).
///
/// ```swift
/// let proxy = try ProxySettings(proxy: ProxyServer(parsing: "http://proxy.corp:3128"), bypass: "localhost,.internal")
/// let fromShell = ProxySettings.environment()   // http_proxy, HTTPS_PROXY, ALL_PROXY, NO_PROXY
/// ```
public struct ProxySettings: Sendable, Hashable, CustomStringConvertible {
    /// The proxy for `http` URLs; `nil` connects directly.
    public var http: ProxyServer?
    /// The proxy for `https` URLs (reached with a `CONNECT` tunnel through an HTTP proxy); `nil` connects directly.
    public var https: ProxyServer?
    /// The hosts that never go through a proxy.
    public var bypass: ProxyBypass

    /// No proxy: every request connects directly, whatever the environment says.
    public static let direct = ProxySettings(http: nil, https: nil)

    /// Creates settings with a proxy per scheme.
    public init(http: ProxyServer?, https: ProxyServer?, bypass: ProxyBypass = ProxyBypass("")) {
        self.http = http
        self.https = https
        self.bypass = bypass
    }

    /// Creates settings that send every request through one proxy, except to the hosts of a `NO_PROXY`-style list.
    public init(proxy: ProxyServer, bypass: String = "") {
        self.init(http: proxy, https: proxy, bypass: ProxyBypass(bypass))
    }

    /// The proxy a request to `url` goes through, or `nil` for a direct connection.
    public func proxy(for url: URL) -> ProxyServer? {
        let scheme = url.scheme?.lowercased()
        guard let server = scheme == "https" ? https : scheme == "http" ? http : nil else { return nil }
        guard let host = url.host(percentEncoded: false), !bypass.matches(host: host) else { return nil }
        return server
    }

    /// Says where requests go, credentials masked: for the verbose log and metrics.
    public var description: String {
        guard http != nil || https != nil else { return "direct" }
        var parts = [
            "http via \(http.map(String.init(describing:)) ?? "direct")",
            "https via \(https.map(String.init(describing:)) ?? "direct")",
        ]
        if !bypass.entries.isEmpty { parts.append("no proxy for \(bypass)") }
        return parts.joined(separator: ", ")
    }
}
