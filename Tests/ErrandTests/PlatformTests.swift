import Errand
import Foundation
import Testing

/// What a build gets depends on where libcurl exists: this suite runs in both CI configurations (with curl, and
/// `ERRAND_NO_CURL=1`, the iOS source set) and checks each got its own.
@Suite("Platform: the transport a build gets")
struct PlatformTests {
    @Test("the default transport is curl where libcurl is built in off Apple platforms, URLSession everywhere else")
    func defaultTransport() {
        let transport = ClientConfiguration.defaultTransport()
        #if canImport(CCurl) && !canImport(Darwin)
        #expect(transport is CurlTransport)
        #else
        #expect(transport is URLSessionTransport)
        #endif
        let configured = ClientConfiguration(baseURL: URL(string: "https://example.com")!).transport
        #expect(type(of: configured) == type(of: transport), "a configuration that names no transport gets the default")
    }
}
