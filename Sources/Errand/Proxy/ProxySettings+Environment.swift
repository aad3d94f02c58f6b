import Foundation

extension ProxySettings {
    /// The settings the environment asks for, read by curl's rules.
    ///
    /// `http` URLs use `http_proxy`, `https` URLs `https_proxy` or `HTTPS_PROXY`, either falling back to `all_proxy`
    /// or `ALL_PROXY`; `no_proxy` or `NO_PROXY` lists the hosts reached directly (the lower-case name wins when both
    /// are set, and an empty value counts as unset). Like curl, the upper-case `HTTP_PROXY` is ignored: a CGI server
    /// puts a request's `Proxy:` header there, so honouring it would let any caller redirect the traffic
    /// ("httpoxy", CVE-2016-5385).
    ///
    /// Errand reads the environment only when asked through this method; a transport configured without proxy
    /// settings connects directly.
    ///
    /// - Throws: ``ErrandError/invalidRequest(_:)`` when a variable holds something that is not a proxy URL.
    public static func environment(
        _ environment: [String: String] = ProcessInfo.processInfo.environment
    ) throws(ErrandError) -> ProxySettings {
        func value(_ names: String...) -> String? {
            for name in names {
                if let value = environment[name]?.trimmingCharacters(in: .whitespaces), !value.isEmpty { return value }
            }
            return nil
        }
        func server(_ text: String?) throws(ErrandError) -> ProxyServer? {
            guard let text else { return nil }
            return try ProxyServer(parsing: text)
        }
        let all = value("all_proxy", "ALL_PROXY")
        return ProxySettings(
            http: try server(value("http_proxy") ?? all),
            https: try server(value("https_proxy", "HTTPS_PROXY") ?? all),
            bypass: ProxyBypass(value("no_proxy", "NO_PROXY") ?? ""))
    }
}
