#if canImport(CCurl)
import Errand
import Foundation
import TestSupport

/// Shorthands for the curl transport's tests.
enum CurlTest {
    /// A transport trusting the test CA (when set), with extra configuration.
    static func transport(
        pinnedPublicKey: String? = nil, streamBufferSize: Int = 1 << 20, trustsTestCA: Bool = true
    ) -> CurlTransport {
        CurlTransport(
            configuration: .init(
                caBundle: trustsTestCA ? TestServer.certificateAuthority : nil, pinnedPublicKey: pinnedPublicKey,
                streamBufferSize: streamBufferSize))
    }

    /// A request to a path (with an optional query) on a test server.
    static func request(
        _ server: TestServer, _ path: String, method: HTTPMethod = .get, headers: HTTPHeaders = [:],
        body: TransportBody = .none, timeouts: Timeouts = Timeouts(total: .seconds(30)),
        maxResponseBodySize: Int = 50_000_000, redirects: RedirectPolicy = RedirectPolicy()
    ) throws -> TransportRequest {
        let base = try server.url().absoluteString
        guard let url = URL(string: base + path) else { throw URLError(.badURL) }
        return TransportRequest(
            method: method, url: url, headers: headers, body: body, timeouts: timeouts,
            maxResponseBodySize: maxResponseBodySize, redirects: redirects)
    }

    /// The failure kind of a transport error, or `nil` for any other outcome.
    static func failureKind(_ error: any Error) -> TransportFailure.Kind? {
        guard case .transport(let failure) = error as? ErrandError else { return nil }
        return failure.kind
    }

    /// The JSON object a response body holds.
    static func json(_ data: Data) throws -> [String: Any] {
        guard let object = try JSONSerialization.jsonObject(with: data) as? [String: Any] else {
            throw CocoaError(.coderReadCorrupt)
        }
        return object
    }

    /// This process's resident memory in bytes (Linux), `nil` where it cannot be read.
    static func residentMemory() -> Int? {
        guard let status = try? String(contentsOfFile: "/proc/self/status", encoding: .utf8) else { return nil }
        for line in status.split(separator: "\n") where line.hasPrefix("VmRSS:") {
            let kilobytes = line.split(separator: " ").dropFirst().first.flatMap { Int($0) }
            return kilobytes.map { $0 * 1024 }
        }
        return nil
    }
}
#endif
