import Errand
import ErrandTesting
import Foundation
import MetMuseum
import Testing

/// The Met's largest answers are a few MB, so a client of it accepts at most 16 MB.
@Suite("MetMuseum: a body limit that fits the API")
struct MetBodyLimitTests {
    @Test("a client made for a base URL tells the transport the Met's limit")
    func limit() async throws {
        let stub = StubTransport()
        stub.respond(to: "departments", json: #"{"departments":[]}"#)
        let met = MetClient(baseURL: URL(string: "https://collectionapi.metmuseum.org")!, transport: stub, retry: nil)
        _ = try await met.departments()
        #expect(stub.requests.last?.maxResponseBodySize == MetClient.maxResponseBodySize)
    }
}
