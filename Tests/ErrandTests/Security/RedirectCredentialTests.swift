import Errand
import Foundation
import Testing
import TestSupport

/// A redirect to another server never carries the caller's credentials, on either transport: httpbin redirects to
/// the fault server (same address, another port), which records the headers it received.
@Suite("Security: redirects keep credentials at home", .serialized)
struct RedirectCredentialTests {
    private struct Logged: Decodable { var headers: [String: String] }

    @Test("Authorization, Proxy-Authorization and Cookie stay behind when the port changes",
        .enabled(if: TestServer.httpbin.isUsable && TestServer.fault.isUsable), arguments: TransportKind.allCases)
    func credentialsStayBehind(kind: TransportKind) async throws {
        let fault = try TestServer.fault.url()
        let key = "redirect-credentials-\(kind)"
        let target = fault.appendingPathComponent("ok").appendingPathComponent(key).absoluteString
        let client = APIClient(configuration: ClientConfiguration(baseURL: try TestServer.httpbin.url(), transport: kind.make()))
        let headers: HTTPHeaders = [
            "Authorization": "Bearer hunter2", "Proxy-Authorization": "Basic aHVudGVyMg==", "Cookie": "session=hunter2",
            "X-Trace": "kept",
        ]
        let response = try await client.send(Request<Data>(
            path: "redirect-to", query: [QueryItem("url", target), QueryItem("status_code", "302")], headers: headers))
        #expect(response.status == 200)

        let logClient = APIClient(configuration: ClientConfiguration(baseURL: fault, transport: kind.make()))
        let log = try await logClient.send(Request<[Logged]>(path: "__log", query: [QueryItem("key", key)])).value
        let received = try #require(log.last?.headers)
        let names = Set(received.keys.map { $0.lowercased() })
        #expect(!names.contains("authorization"))
        #expect(!names.contains("proxy-authorization"))
        #expect(!names.contains("cookie"))
        #expect(received.first { $0.key.lowercased() == "x-trace" }?.value == "kept", "other fields follow the redirect")
        _ = try? await logClient.send(Request<Data>(method: .delete, path: "__log", query: [QueryItem("key", key)]))
    }
}
