import Foundation
import Testing

@testable import Errand

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// How URLSessionTransport answers challenges once it has a trust, a client certificate or proxy credentials: the
/// decision is plain Swift, checked here on Linux for every platform's rule.
@Suite("URLSession: trust, client certificate and proxy challenges")
struct ChallengePolicyTests {
    static let credentials = ProxyCredentials(user: "errand", password: "s3cret")
    static let proxy = ProxyServer(.http, host: "proxy.example.com", port: 3128, credentials: credentials)

    static func proxySpace(
        host: String = "proxy.example.com", port: Int = 3128, method: String = NSURLAuthenticationMethodHTTPBasic
    ) -> URLProtectionSpace {
        URLProtectionSpace(
            proxyHost: host, port: port, type: NSURLProtectionSpaceHTTPProxy, realm: "proxy",
            authenticationMethod: method)
    }

    static func serverSpace(_ method: String) -> URLProtectionSpace {
        URLProtectionSpace(
            host: "api.example.com", port: 443, protocol: "https", realm: nil, authenticationMethod: method)
    }

    static var applePolicy: ChallengePolicy {
        var policy = ChallengePolicy(proxy: ProxySettings(proxy: proxy))
        policy.answersProxyChallenges = true
        return policy
    }

    @Test("a configured proxy's Basic challenge is answered with its credentials, on Apple platforms")
    func proxyAnswered() {
        #expect(ChallengeAnswer(Self.proxySpace(), policy: Self.applePolicy) == .proxyCredentials(Self.credentials))
        #expect(
            ChallengeAnswer(Self.proxySpace(host: "PROXY.example.com"), policy: Self.applePolicy)
                == .proxyCredentials(Self.credentials))
    }

    @Test("the credentials are offered once: a second challenge is the proxy's refusal, reported as 407")
    func offeredOnce() {
        #expect(
            ChallengeAnswer(Self.proxySpace(), previousFailureCount: 1, policy: Self.applePolicy) == .reportStatus(407))
    }

    @Test(
        "another proxy, another port, Digest or NTLM, or a proxy without credentials gets none",
        arguments: [
            ("other.example.com", 3128, NSURLAuthenticationMethodHTTPBasic),
            ("proxy.example.com", 8080, NSURLAuthenticationMethodHTTPBasic),
            ("proxy.example.com", 3128, NSURLAuthenticationMethodHTTPDigest),
            ("proxy.example.com", 3128, NSURLAuthenticationMethodNTLM),
        ])
    func notAnswered(host: String, port: Int, method: String) {
        let space = Self.proxySpace(host: host, port: port, method: method)
        #expect(ChallengeAnswer(space, policy: Self.applePolicy) == .reportStatus(407))
        var bare = Self.applePolicy
        bare.proxy = ProxySettings(proxy: ProxyServer(.http, host: "proxy.example.com", port: 3128))
        #expect(ChallengeAnswer(Self.proxySpace(), policy: bare) == .reportStatus(407))
    }

    @Test("a server's 401 never gets the proxy's credentials")
    func serverNeverGetsProxyCredentials() {
        let space = URLProtectionSpace(
            host: "proxy.example.com", port: 3128, protocol: "http", realm: nil,
            authenticationMethod: NSURLAuthenticationMethodHTTPBasic)
        #expect(ChallengeAnswer(space, policy: Self.applePolicy) == .reportStatus(401))
    }

    #if canImport(FoundationNetworking)
    @Test("on Linux the proxy's challenge is reported as 407: FoundationNetworking's proxy is the environment's")
    func linuxReports() {
        let policy = ChallengePolicy(proxy: ProxySettings(proxy: Self.proxy))
        #expect(ChallengeAnswer(Self.proxySpace(), policy: policy) == .reportStatus(407))
    }
    #endif

    @Test("server trust is evaluated under the configured trust, and left to the system without one")
    func serverTrust() throws {
        let trust = ServerTrust(pins: [try PublicKeyPin(PublicKeyPinTextTests.valid)])
        let space = Self.serverSpace(ChallengeAnswer.serverTrustMethod)
        #expect(ChallengeAnswer(space, policy: ChallengePolicy(trust: trust)) == .evaluateServerTrust(trust))
        #expect(ChallengeAnswer(space) == .defaultHandling)
    }

    @Test("a client-certificate challenge presents PKCS#12, refuses PEM, and presents nothing when none is configured")
    func clientCertificate() {
        let space = Self.serverSpace(ChallengeAnswer.clientCertificateMethod)
        let archive = ClientCertificate(pkcs12: Data([1, 2, 3]), passphrase: ClientCertificate.Passphrase("p"))
        #expect(
            ChallengeAnswer(space, policy: ChallengePolicy(clientCertificate: archive)) == .presentCertificate(archive))
        let pem = ClientCertificate(certificate: .pem(Data("x".utf8)))
        guard case .refuse(let reason) = ChallengeAnswer(space, policy: ChallengePolicy(clientCertificate: pem)) else {
            Issue.record("a PEM certificate was not refused")
            return
        }
        #expect(reason.contains("PKCS#12"))
        #expect(ChallengeAnswer(space) == .defaultHandling)
    }

    @Test("the delegate answers a configured proxy with a credential for this session, carrying the password")
    func delegateProxyCredential() {
        let delegate = SessionDelegate(policy: Self.applePolicy)
        let session = URLSession(configuration: .ephemeral)
        let task = session.dataTask(with: URL(string: "http://example.com/x")!)
        var answer: (URLSession.AuthChallengeDisposition, URLCredential?)?
        delegate.urlSession(session, task: task, didReceive: Self.challenge(Self.proxySpace())) { answer = ($0, $1) }
        #expect(answer?.0 == .useCredential)
        #expect(answer?.1?.user == "errand")
        #expect(answer?.1?.password == "s3cret")
        #expect(answer?.1?.persistence == .forSession)
    }

    #if !canImport(Security)
    @Test("without Security, a server-trust challenge under a trust is cancelled and fails its exchange as TLS")
    func trustFailsClosed() async throws {
        let trust = ServerTrust(pins: [try PublicKeyPin(PublicKeyPinTextTests.valid)])
        let delegate = SessionDelegate(policy: ChallengePolicy(trust: trust))
        let session = URLSession(configuration: .ephemeral)
        // A scheme FoundationNetworking has no protocol for: starting the exchange resumes the task, which then
        // fails at once without a connection. A task that tries to connect would be failing on its own while the
        // refusal cancels it, and FoundationNetworking traps when a cancel meets a task its registry already let go.
        let url = URL(string: "errand-unloadable://127.0.0.1/private")!
        let task = session.dataTask(with: url)
        let exchange = URLSessionExchange(request: TransportRequest(url: url), task: task)
        delegate.register(exchange, for: task)
        let space = Self.serverSpace(ChallengeAnswer.serverTrustMethod)
        let error = await #expect(throws: ErrandError.self) {
            let _: TransportResponse = try await withCheckedThrowingContinuation { continuation in
                exchange.start(.buffered(continuation))
                delegate.urlSession(session, task: task, didReceive: Self.challenge(space)) { disposition, _ in
                    #expect(disposition == .cancelAuthenticationChallenge)
                }
                delegate.urlSession(session, task: task, didCompleteWithError: URLError(.cancelled))
            }
        }
        guard case .transport(let failure) = error else {
            Issue.record("expected a TLS failure, got \(String(describing: error))")
            return
        }
        #expect(failure.kind == .tls)
    }
    #endif

    @Test("on a platform without TLS challenges an https request with a trust or certificate fails; http does not")
    func enforceable() throws {
        let trust = ChallengePolicy(trust: ServerTrust())
        let https = URL(string: "https://api.example.com/")!
        #expect(throws: ErrandError.self) { try trust.checkEnforceable(for: https, sendsTLSChallenges: false) }
        let certificate = ChallengePolicy(clientCertificate: ClientCertificate(pkcs12: Data(), passphrase: nil))
        #expect(throws: ErrandError.self) { try certificate.checkEnforceable(for: https, sendsTLSChallenges: false) }
        try trust.checkEnforceable(for: URL(string: "http://127.0.0.1/")!, sendsTLSChallenges: false)
        try trust.checkEnforceable(for: https, sendsTLSChallenges: true)
        try ChallengePolicy().checkEnforceable(for: https, sendsTLSChallenges: false)
    }

    #if canImport(FoundationNetworking)
    @Test("URLSessionTransport on Linux with a trust refuses an https request instead of sending it unchecked")
    func linuxTransportRefuses() async throws {
        let transport = URLSessionTransport(trust: ServerTrust(pins: [try PublicKeyPin(PublicKeyPinTextTests.valid)]))
        let error = await #expect(throws: ErrandError.self) {
            _ = try await transport.send(TransportRequest(url: URL(string: "https://localhost:1/")!))
        }
        guard case .invalidRequest(let reason) = error else {
            Issue.record("expected invalidRequest, got \(String(describing: error))")
            return
        }
        #expect(reason.contains("CurlTransport"))
    }
    #endif

    static func challenge(_ space: URLProtectionSpace) -> URLAuthenticationChallenge {
        URLAuthenticationChallenge(
            protectionSpace: space, proposedCredential: nil, previousFailureCount: 0, failureResponse: nil, error: nil,
            sender: PolicyChallengeSender())
    }
}

/// A challenge needs a sender; the delegate answers through its completion handler and never calls it.
private final class PolicyChallengeSender: NSObject, URLAuthenticationChallengeSender, Sendable {
    func use(_ credential: URLCredential, for challenge: URLAuthenticationChallenge) {}
    func continueWithoutCredential(for challenge: URLAuthenticationChallenge) {}
    func cancel(_ challenge: URLAuthenticationChallenge) {}
    func performDefaultHandling(for challenge: URLAuthenticationChallenge) {}
    func rejectProtectionSpaceAndContinue(with challenge: URLAuthenticationChallenge) {}
}
