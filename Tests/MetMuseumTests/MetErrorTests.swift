import Errand
import ErrandTesting
import Foundation
import Testing

@testable import MetMuseum

@Suite("Met errors")
struct MetErrorTests {
    private func failure(_ status: Int, _ body: String, contentType: String = "application/json") -> StatusFailure {
        StatusFailure(status: status, headers: ["Content-Type": contentType], body: Data(body.utf8), url: nil)
    }

    @Test("the Met's answers map to distinct cases with their own sentence")
    func mapping() {
        let notFound = MetError(.unacceptableStatus(failure(404, #"{"message":"ObjectID not found"}"#)), objectID: 3)
        let notValid = MetError(.unacceptableStatus(failure(404, #"{"message":"Not a valid object"}"#)), objectID: 4)
        let blocked = MetError(.blocked(failure(403, "<html>…</html>", contentType: "text/html")))
        let unavailable = MetError(.unacceptableStatus(failure(503, "<html>down</html>", contentType: "text/html")))
        let other = MetError(.unacceptableStatus(failure(418, "teapot")))

        guard case .notFound(3, "ObjectID not found") = notFound else {
            Issue.record("\(notFound)")
            return
        }
        guard case .notAvailable(4, "Not a valid object") = notValid else {
            Issue.record("\(notValid)")
            return
        }
        guard case .blocked = blocked else {
            Issue.record("\(blocked)")
            return
        }
        guard case .serviceUnavailable = unavailable else {
            Issue.record("\(unavailable)")
            return
        }
        guard case .request(.unacceptableStatus) = other else {
            Issue.record("\(other)")
            return
        }

        let sentences = [notFound, notValid, blocked, unavailable].map(\.userMessage)
        #expect(Set(sentences).count == 4)
        #expect(notFound.userMessage.contains("3"))
        #expect(blocked.userMessage.contains("wait"))
        #expect(unavailable.userMessage.contains("503"))
        #expect(notFound.isObjectSpecific && notValid.isObjectSpecific)
        #expect(!blocked.isObjectSpecific && !unavailable.isObjectSpecific)
        #expect(MetError.request(.cancelled).isCancellation)
    }
}

@Suite("MetClient: one APIClient from a configuration or a client")
struct MetClientSetupTests {
    @Test("a configuration on the default body limit gets the Met's; a limit of the caller's own is kept")
    func configuration() {
        let root = URL(string: "https://met.example")!
        let fitted = MetClient(configuration: ClientConfiguration(baseURL: root, transport: StubTransport()))
        #expect(fitted.client.configuration.maxResponseBodySize == MetClient.maxResponseBodySize)
        let own = MetClient(
            configuration: ClientConfiguration(
                baseURL: root, transport: StubTransport(), maxResponseBodySize: 1_000))
        #expect(own.client.configuration.maxResponseBodySize == 1_000)
        let given = MetClient(
            client: APIClient(configuration: ClientConfiguration(baseURL: root, transport: StubTransport())))
        #expect(given.client.configuration.maxResponseBodySize == ClientConfiguration.defaultMaxResponseBodySize)
    }
}
