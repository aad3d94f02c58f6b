import Errand
import Foundation

/// The `--base-url` rules: a server root `scheme://host[:port]` with no path, query or credentials; `https`, or
/// `http` only to a loopback host (127.0.0.0/8, `::1`, `localhost`). The flag wins over the environment variable,
/// which wins over the default.
public enum ServerAddress {
    /// The server root to use, from the flag, then the environment variable, then the default.
    /// - Throws: ``UsageError`` naming the offending value and where it came from.
    public static func resolve(
        flag: String?, environment: [String: String], variable: String, default fallback: URL, helpCommand: String
    ) throws(UsageError) -> URL {
        if let flag {
            return try validate(flag, source: "--base-url", helpCommand: helpCommand)
        }
        if let value = environment[variable], !value.isEmpty {
            return try validate(value, source: variable, helpCommand: helpCommand)
        }
        return fallback
    }

    /// Checks one server root; `source` names where it came from in the error message.
    public static func validate(_ text: String, source: String, helpCommand: String) throws(UsageError) -> URL {
        func fail(_ problem: String) -> UsageError {
            UsageError("\(source) \(problem)", helpCommand: helpCommand)
        }
        guard let components = URLComponents(string: text), let scheme = components.scheme?.lowercased(),
            let host = components.host, !host.isEmpty
        else {
            throw fail(
                "must be a server root such as https://example.com or http://127.0.0.1:8080, not '\(UsageError.echo(text))'"
            )
        }
        guard scheme == "https" || scheme == "http" else {
            throw fail("must use https, not '\(scheme)'")
        }
        guard components.user == nil, components.password == nil else {
            throw fail("must not contain a user name or password")
        }
        guard components.path.isEmpty || components.path == "/", components.query == nil, components.fragment == nil
        else {
            throw fail("must be only scheme://host[:port], without a path or query, not '\(UsageError.echo(text))'")
        }
        if host.hasPrefix("[") {
            let literal = host.dropFirst().dropLast()
            guard host.hasSuffix("]"), isIPv6Address(String(literal)) else {
                throw fail("has '\(host)' as its host, which is not an IPv6 address in brackets such as [::1]")
            }
        }
        if let port = components.port, !(1...65_535).contains(port) {
            throw fail("has an invalid port \(port)")
        }
        if scheme == "http", !isLoopback(host) {
            throw fail(
                "uses http to \(host): https is required (plain http is allowed only to 127.0.0.1, ::1 or localhost)")
        }
        var root = URLComponents()
        root.scheme = scheme
        root.host = components.host
        root.port = components.port
        // The root must be one the client builds request URLs on.
        guard let url = root.url, (try? URLBuilder.url(base: url, segments: [])) != nil else {
            throw fail("is not a valid URL: '\(UsageError.echo(text))'")
        }
        return url
    }

    /// Whether text is an IPv6 address (without brackets or zone), as `inet_pton` reads it.
    static func isIPv6Address(_ text: String) -> Bool {
        var address = in6_addr()
        return !text.isEmpty && inet_pton(AF_INET6, text, &address) == 1
    }

    /// Whether a host is loopback: `localhost`, an address in 127.0.0.0/8, or `::1` — the client's own rule
    /// (``PlainHTTPPolicy/isLoopback(_:)``).
    public static func isLoopback(_ host: String) -> Bool {
        PlainHTTPPolicy.isLoopback(host)
    }
}
