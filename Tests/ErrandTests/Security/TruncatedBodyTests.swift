@testable import Errand
import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Testing
import TestSupport

/// A body cut short is never a success: the fault server sends half of a gzip stream framed by a correct
/// Content-Length (or, to a client that asks for identity, half of the body it announced, then closes).
@Suite("Security: a truncated body is never a success", .serialized)
struct TruncatedBodyTests {
    static let transports = TransportKind.allCases

    @Test(
        "a cut-off body fails as a lost connection or an unreadable response", .enabled(if: TestServer.fault.isUsable),
        arguments: transports)
    func truncated(kind: TransportKind) async throws {
        let client = APIClient(
            configuration: ClientConfiguration(baseURL: try TestServer.fault.url(), transport: kind.make()))
        let error = await #expect(throws: ErrandError.self) {
            try await client.send(Request<Data>(segments: ["truncated-gzip", "truncated-\(kind)"]))
        }
        guard case .transport(let failure)? = error else {
            Issue.record("expected a transport failure, got \(String(describing: error))")
            return
        }
        #expect([.connectionLost, .badResponse].contains(failure.kind), "\(failure.kind): \(failure.underlying)")
    }

    @Test("on Linux, URLSessionTransport asks for identity unless the request names an encoding")
    func identityOnLinux() {
        let plain = URLSessionTransport.makeURLRequest(TransportRequest(url: URL(string: "https://h.example/x")!))
        let named = URLSessionTransport.makeURLRequest(
            TransportRequest(
                url: URL(string: "https://h.example/x")!, headers: ["Accept-Encoding": "gzip"]))
        #if canImport(FoundationNetworking)
        #expect(plain.value(forHTTPHeaderField: "Accept-Encoding") == "identity")
        #else
        #expect(plain.value(forHTTPHeaderField: "Accept-Encoding") == nil)
        #endif
        #expect(named.value(forHTTPHeaderField: "Accept-Encoding") == "gzip")
    }
}
