import Errand
import FeatureState
import Foundation
import Testing

@Suite("FailureKind: every Errand error has one kind")
struct FailureKindTests {
    static func status(_ code: Int) -> StatusFailure {
        StatusFailure(status: code, headers: [:], body: Data(), url: nil)
    }
    static let cases: [(ErrandError, FailureKind)] = [
        (.transport(TransportFailure(kind: .cannotConnect, underlying: "")), .unreachable),
        (.transport(TransportFailure(kind: .dnsFailure, underlying: "")), .unreachable),
        (.transport(TransportFailure(kind: .tls, underlying: "")), .connectionFailed),
        (.transport(TransportFailure(kind: .connectionLost, underlying: "")), .connectionFailed),
        (.transport(TransportFailure(kind: .other, underlying: "")), .connectionFailed),
        (.transport(TransportFailure(kind: .timedOut, underlying: "")), .timedOut),
        (.transport(TransportFailure(kind: .tooManyRedirects, underlying: "")), .redirectRefused),
        (.transport(TransportFailure(kind: .insecureRedirect, underlying: "")), .redirectRefused),
        (.transport(TransportFailure(kind: .badResponse, underlying: "")), .invalidResponse),
        (.notCached(URL(string: "https://example.com/a")!), .notCached),
        (.unacceptableStatus(status(404)), .notFound),
        (.unacceptableStatus(status(500)), .serverError),
        (.unacceptableStatus(status(429)), .serverError),
        (.blocked(status(403)), .blocked),
        (
            .decoding(DecodingFailure(targetType: "X", codingPath: "", reason: "", body: Data(), contentType: nil)),
            .invalidResponse
        ),
        (.bodyTooLarge(limit: 10), .invalidResponse),
        (.invalidURL("bad"), .invalidRequest),
        (.insecureURL(URL(string: "http://example.com")!), .invalidRequest),
        (.invalidRequest("bad"), .invalidRequest),
        (.cancelled, .cancelled),
        (.app(AppFailure(AppsOwnError())), .appFailure),
    ]

    /// An error only an app's own code throws.
    struct AppsOwnError: Error {}

    @Test("each error's kind", arguments: cases)
    func kind(error: ErrandError, expected: FailureKind) {
        #expect(FailureKind(error) == expected)
        let classified = ClassifiedFailure(error)
        #expect(classified.kind == expected)
        #expect(classified.reason == error.userMessage)
        #expect(classified.technicalDescription == error.debugDescription)
    }

    @Test("every kind is reached by some error")
    func everyKindIsReached() {
        #expect(Set(Self.cases.map(\.1)) == Set(FailureKind.allCases))
    }

    @Test("a failure names the address of the error that has one")
    func url() {
        let url = URL(string: "https://example.com/x")!
        #expect(
            ClassifiedFailure(.transport(TransportFailure(kind: .cannotConnect, url: url, underlying: ""))).url == url)
        #expect(ClassifiedFailure(.notCached(url)).url == url)
        #expect(ClassifiedFailure(.invalidRequest("x")).url == nil)
    }

    @Test("any error: a classified one as it is, an SDK's by its classifier, the rest as Errand errors")
    func anyError() {
        struct Own: Error {}
        let own = ClassifiedFailure(kind: .notFound, reason: "none", technicalDescription: "Own")
        #expect(ClassifiedFailure(own) == own)
        #expect(ClassifiedFailure(Own(), classifyingOwn: { $0 is Own ? own : nil }) == own)
        #expect(ClassifiedFailure(CancellationError()).kind == .cancelled)
        #expect(ClassifiedFailure(Own()).kind == ClassifiedFailure(ErrandError(Own())).kind)
    }
}
