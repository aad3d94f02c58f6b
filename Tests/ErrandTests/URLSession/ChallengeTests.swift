import Foundation
import Testing
@testable import Errand

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// The session delegate's answers to authentication challenges, called directly: FoundationNetworking never sends a
/// server-trust or client-certificate challenge, so no request on Linux could show a wrong answer to those.
@Suite("URLSession: authentication challenges")
struct ChallengeTests {
    // Apple's NSURLAuthenticationMethodServerTrust and NSURLAuthenticationMethodClientCertificate are these strings;
    // FoundationNetworking marks both constants unavailable.
    static let serverTrust = "NSURLAuthenticationMethodServerTrust"
    static let clientCertificate = "NSURLAuthenticationMethodClientCertificate"

    private let session = URLSession(configuration: .ephemeral)
    private let delegate = SessionDelegate()

    private static func challenge(_ space: URLProtectionSpace) -> URLAuthenticationChallenge {
        URLAuthenticationChallenge(
            protectionSpace: space, proposedCredential: nil, previousFailureCount: 0, failureResponse: nil, error: nil,
            sender: ChallengeSender())
    }

    private static func server(_ method: String) -> URLProtectionSpace {
        URLProtectionSpace(
            host: "api.example.com", port: 443, protocol: "https", realm: "api", authenticationMethod: method)
    }

    private static func proxy(_ method: String) -> URLProtectionSpace {
        URLProtectionSpace(
            proxyHost: "proxy.example.com", port: 3128, type: NSURLProtectionSpaceHTTPProxy, realm: "proxy",
            authenticationMethod: method)
    }

    /// The disposition and credential the task-level method answers.
    private func taskAnswer(
        _ space: URLProtectionSpace, task: URLSessionTask? = nil
    ) -> (URLSession.AuthChallengeDisposition, URLCredential?) {
        let task = task ?? session.dataTask(with: URL(string: "https://api.example.com/x")!)
        var answer: (URLSession.AuthChallengeDisposition, URLCredential?)?
        delegate.urlSession(session, task: task, didReceive: Self.challenge(space)) { answer = ($0, $1) }
        return answer ?? (.rejectProtectionSpace, nil)
    }

    @Test("server trust gets the system's default handling when no ServerTrust is configured")
    func serverTrust() {
        let (disposition, credential) = taskAnswer(Self.server(Self.serverTrust))
        #expect(disposition == .performDefaultHandling)
        #expect(credential == nil)
    }

    @Test("a client-certificate request gets default handling when none is configured: no certificate is offered")
    func clientCertificate() {
        #expect(taskAnswer(Self.server(Self.clientCertificate)).0 == .performDefaultHandling)
    }

    @Test(
        "HTTP Basic, Digest, NTLM and Negotiate from a server are cancelled, never answered with a credential",
        arguments: [
            NSURLAuthenticationMethodHTTPBasic, NSURLAuthenticationMethodHTTPDigest, NSURLAuthenticationMethodNTLM,
            NSURLAuthenticationMethodNegotiate, NSURLAuthenticationMethodDefault,
        ])
    func credentialChallenge(method: String) {
        let (disposition, credential) = taskAnswer(Self.server(method))
        #expect(disposition == .cancelAuthenticationChallenge)
        #expect(credential == nil)
        #expect(ChallengeAnswer(Self.server(method)) == .reportStatus(401))
    }

    @Test("a proxy asking for credentials is cancelled and stands for a 407")
    func proxyChallenge() {
        #expect(taskAnswer(Self.proxy(NSURLAuthenticationMethodHTTPBasic)).0 == .cancelAuthenticationChallenge)
        #expect(ChallengeAnswer(Self.proxy(NSURLAuthenticationMethodHTTPBasic)) == .reportStatus(407))
    }

    @Test(
        "a method the transport does not know gets default handling",
        arguments: [
            NSURLAuthenticationMethodHTMLForm, "NSURLAuthenticationMethodSomethingNew",
        ])
    func unknownMethod(method: String) {
        #expect(taskAnswer(Self.server(method)).0 == .performDefaultHandling)
    }

    /// Runs an exchange through a challenge for `space` and the cancellation URLSession then reports.
    private func exchangeAfterChallenge(_ space: URLProtectionSpace, error: URLError) async throws -> TransportResponse
    {
        // Starting the exchange resumes the task, which this test's session (not the delegate's) runs: a closed
        // loopback port keeps it off the network, and its outcome reaches no one.
        let url = URL(string: "http://127.0.0.1:9/private")!
        let task = session.dataTask(with: url)
        let exchange = URLSessionExchange(request: TransportRequest(url: url), task: task)
        delegate.register(exchange, for: task)
        return try await withCheckedThrowingContinuation { continuation in
            exchange.start(.buffered(continuation))
            _ = taskAnswer(space, task: task)
            delegate.urlSession(session, task: task, didCompleteWithError: error)
        }
    }

    @Test("a cancelled 401 challenge completes the exchange with the 401 status, not an error")
    func challengeBecomesStatus() async throws {
        let response = try await exchangeAfterChallenge(
            Self.server(NSURLAuthenticationMethodHTTPBasic), error: URLError(.userCancelledAuthentication))
        #expect(response.status == 401)
        #expect(response.headers["WWW-Authenticate"] == "NSURLAuthenticationMethodHTTPBasic realm=\"api\"")
    }

    @Test("a proxy challenge completes the exchange with 407 and Proxy-Authenticate")
    func proxyChallengeBecomesStatus() async throws {
        let response = try await exchangeAfterChallenge(
            Self.proxy(NSURLAuthenticationMethodHTTPBasic), error: URLError(.cancelled))
        #expect(response.status == 407)
        #expect(response.headers["Proxy-Authenticate"] != nil)
    }
}

/// A challenge needs a sender; the delegate answers through its completion handler and never calls it.
private final class ChallengeSender: NSObject, URLAuthenticationChallengeSender, Sendable {
    func use(_ credential: URLCredential, for challenge: URLAuthenticationChallenge) {}
    func continueWithoutCredential(for challenge: URLAuthenticationChallenge) {}
    func cancel(_ challenge: URLAuthenticationChallenge) {}
    func performDefaultHandling(for challenge: URLAuthenticationChallenge) {}
    func rejectProtectionSpaceAndContinue(with challenge: URLAuthenticationChallenge) {}
}
