import Foundation

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

extension URLSessionConfiguration {
    /// Sends the sessions made from this configuration through the proxies of `settings`, by its
    /// `connectionProxyDictionary`.
    ///
    /// On Apple platforms URLSession reads the HTTP, HTTPS and SOCKS proxies and the bypass list from it (`name` and
    /// `*.name` for each `NO_PROXY` name entry), and asks for proxy credentials in an authentication challenge that
    /// Errand does not answer, so the credentials are not set. ``ProxySettings/direct`` sets an empty dictionary:
    /// no proxy, whatever the system says.
    ///
    /// On Linux FoundationNetworking ignores the dictionary altogether, an empty one included: its libcurl uses
    /// whatever `http_proxy`, `https_proxy` and `no_proxy` the process environment holds, and nothing else. Use
    /// ``CurlTransport`` there for any proxy choice of the app's own.
    public func applyProxySettings(_ settings: ProxySettings) {
        var dictionary: [AnyHashable: Any] = [:]
        if let http = settings.http, http.kind == .http {
            dictionary["HTTPEnable"] = 1
            dictionary["HTTPProxy"] = http.host
            dictionary["HTTPPort"] = http.port
        }
        if let https = settings.https, https.kind == .http {
            dictionary["HTTPSEnable"] = 1
            dictionary["HTTPSProxy"] = https.host
            dictionary["HTTPSPort"] = https.port
        }
        if let socks = settings.https ?? settings.http, socks.kind == .socks5 || socks.kind == .socks5h {
            dictionary["SOCKSEnable"] = 1
            dictionary["SOCKSProxy"] = socks.host
            dictionary["SOCKSPort"] = socks.port
        }
        // Apple's patterns need `*.` for the hosts under a name, where NO_PROXY's entry covers both.
        let exceptions = settings.bypass.entries.flatMap { entry -> [String] in
            let name = entry.hasPrefix(".") ? String(entry.dropFirst()) : entry
            return IPAddress(name) != nil || name.contains("/") || name == "*" ? [name] : [name, "*." + name]
        }
        if !exceptions.isEmpty { dictionary["ExceptionsList"] = exceptions }
        connectionProxyDictionary = dictionary
    }
}
