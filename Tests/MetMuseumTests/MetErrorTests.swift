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

    @Test("every sentence comes from the tables in English and German, an override first")
    func localized() {
        let errors: [MetError] = [
            .notFound(objectID: 3, message: ""), .notFound(objectID: nil, message: ""),
            .notAvailable(objectID: 4, message: ""), .notAvailable(objectID: nil, message: ""),
            .blocked(failure(403, "")), .serviceUnavailable(failure(503, "")), .invalidQuery("no text."),
        ]
        let english = errors.map { $0.userMessage(in: "en") }
        let german = errors.map { $0.userMessage(in: "de") }
        #expect(english[0] == "The Met's collection has no object with ID 3.")
        #expect(german[0] == "Die Sammlung des Met hat kein Objekt mit der ID 3.")
        #expect(german[2].hasPrefix("Das Objekt 4 gibt es"))
        #expect(german[6] == "Die Anfrage wurde nicht gesendet: no text.")
        #expect(Set(german).count == errors.count)
        // No German sentence is the English one, and none is a bare key.
        for (en, de) in zip(english, german) {
            #expect(en != de)
            #expect(!de.hasPrefix("met."))
        }
        #expect(MetError.request(.cancelled).userMessage(in: "de") == ErrandError.cancelled.userMessage(in: "de"))
        #expect(MetError.blocked(failure(403, "")).userMessage(in: "fr") == english[4])
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
