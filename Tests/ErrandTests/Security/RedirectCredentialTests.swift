import Errand
import Foundation
import Testing
import TestSupport

/// A redirect to another server never carries the caller's credentials, on either transport: httpbin redirects to
/// the fault server (same address, another port), which records the headers it received.
@Suite("Security: redirects keep credentials at home", .serialized)
struct RedirectCredentialTests {
    private struct Logged: Decodable {
        var method: String
        var headers: [String: String]
    }

    /// Every transport with each redirect path it has: 302 (URLSession follows it) and 307 with a body (which
    /// URLSessionTransport follows itself, since FoundationNetworking drops the body).
    static let cases: [(TransportKind, Int)] = TransportKind.allCases.flatMap { [($0, 302), ($0, 307)] }

    @Test(
        "Authorization, Proxy-Authorization and Cookie stay behind when the port changes",
        .enabled(if: TestServer.httpbin.isUsable && TestServer.fault.isUsable), arguments: cases)
    func credentialsStayBehind(kind: TransportKind, status: Int) async throws {
        let fault = try TestServer.fault.url()
        let key = "redirect-credentials-\(kind)-\(status)"
        let target = fault.appendingPathComponent("ok").appendingPathComponent(key).absoluteString
        let client = APIClient(
            configuration: ClientConfiguration(baseURL: try TestServer.httpbin.url(), transport: kind.make()))
        let headers: HTTPHeaders = [
            "Authorization": "Bearer hunter2", "Proxy-Authorization": "Basic aHVudGVyMg==", "Cookie": "session=hunter2",
            "X-Trace": "kept",
        ]
        let body: RequestBody? = status == 307 ? .data(Data("payload".utf8), contentType: "text/plain") : nil
        let response = try await client.send(
            Request<Data>(
                method: status == 307 ? .post : .get, path: "redirect-to",
                query: [QueryItem("url", target), QueryItem("status_code", String(status))], headers: headers,
                body: body))
        #expect(response.status == 200)

        let logClient = APIClient(configuration: ClientConfiguration(baseURL: fault, transport: kind.make()))
        let log = try await logClient.send(Request<[Logged]>(path: "__log", query: [QueryItem("key", key)])).value
        let last = try #require(log.last)
        #expect(last.method == (status == 307 ? "POST" : "GET"), "307 keeps the method")
        let received = last.headers
        let names = Set(received.keys.map { $0.lowercased() })
        #expect(!names.contains("authorization"))
        #expect(!names.contains("proxy-authorization"))
        #expect(!names.contains("cookie"))
        #expect(
            received.first { $0.key.lowercased() == "x-trace" }?.value == "kept", "other fields follow the redirect")
        _ = try? await logClient.send(Request<Data>(method: .delete, path: "__log", query: [QueryItem("key", key)]))
    }
}
