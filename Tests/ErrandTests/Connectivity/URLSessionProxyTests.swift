import Errand
import Foundation
import Testing
import TestSupport

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// URLSessionTransport with `connectionProxyDictionary` set from ``ProxySettings``, against tinyproxy.
///
/// On Linux this pins down a limit of FoundationNetworking that the transports article states: it ignores the
/// dictionary (its libcurl reads only the process environment), so if a later toolchain starts honouring it, this
/// test fails and the article must change.
@Suite("URLSession through a proxy", .enabled(if: ConnectivityServers.isUsable))
struct URLSessionProxyTests {
    func client(_ server: TestServer, _ settings: ProxySettings) throws -> APIClient {
        let configuration = URLSessionConfiguration.ephemeral
        configuration.applyProxySettings(settings)
        return APIClient(
            configuration: ClientConfiguration(
                baseURL: try server.url(), transport: URLSessionTransport(configuration: configuration)))
    }

    @Test("the session's proxy dictionary is set from the settings")
    func dictionaryIsSet() throws {
        let configuration = URLSessionConfiguration.ephemeral
        configuration.applyProxySettings(
            ProxySettings(proxy: ProxyServer(host: "proxy.corp", port: 3128), bypass: ".internal,10.0.0.0/8"))
        let dictionary = try #require(configuration.connectionProxyDictionary)
        #expect(dictionary["HTTPProxy"] as? String == "proxy.corp")
        #expect(dictionary["HTTPSPort"] as? Int == 3128)
        #expect(dictionary["ExceptionsList"] as? [String] == ["internal", "*.internal", "10.0.0.0/8"])
        configuration.applyProxySettings(.direct)
        #expect(configuration.connectionProxyDictionary?.isEmpty == true)
    }

    #if canImport(FoundationNetworking)
    @Test("on Linux the dictionary is ignored: the request goes directly")
    func linuxIgnoresTheDictionary() async throws {
        let proxy = try ProxyServer(parsing: ConnectivityServers.value("ERRAND_OPEN_PROXY_URL"))
        let marker = UUID().uuidString
        let response = try await client(.httpbin, ProxySettings(proxy: proxy)).send(
            Request<Data>(path: "anything/\(marker)"))
        #expect(response.status == 200)
        #expect(try !ConnectivityServers.proxyLog("tinyproxy-open").contains(marker))
    }
    #endif
}
