import Foundation

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

extension ClientConfiguration {
    /// A new transport of the default kind (see ``defaultTransport()``) that goes through the proxies of `settings`.
    ///
    /// Make one and share it: each has its own connection pool. On URLSession the settings become the session's
    /// `connectionProxyDictionary`, with the limits `URLSessionConfiguration.applyProxySettings(_:)`
    /// describes.
    public static func defaultTransport(proxy settings: ProxySettings) -> any Transport {
        #if canImport(CCurl) && !canImport(Darwin)
        var configuration = CurlTransport.Configuration()
        configuration.proxy = settings
        return CurlTransport(configuration: configuration)
        #else
        let configuration = URLSessionConfiguration.default
        configuration.applyProxySettings(settings)
        return URLSessionTransport(configuration: configuration)
        #endif
    }
}
