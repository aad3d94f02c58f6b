import Foundation

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

extension ClientConfiguration {
    /// A new transport of the default kind (see ``defaultTransport()``) that goes through the proxies of `settings`.
    ///
    /// Make one and share it: each has its own connection pool. On URLSession the settings become the session's
    /// `connectionProxyDictionary`, with the limits `URLSessionConfiguration.applyProxySettings(_:)`
    /// describes, and a configured proxy's Basic challenge is answered with its credentials (Apple platforms).
    public static func defaultTransport(proxy settings: ProxySettings) -> any Transport {
        #if canImport(CCurl) && !canImport(Darwin)
        var configuration = CurlTransport.Configuration()
        configuration.proxy = settings
        return CurlTransport(configuration: configuration)
        #else
        return URLSessionTransport(configuration: .default, proxy: settings)
        #endif
    }
}
