import Foundation
import Synchronization
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// The session-level delegate: FoundationNetworking on Linux never calls per-task delegates, so every task's events
/// come here and are routed to its ``URLSessionExchange`` by task identifier.
final class SessionDelegate: NSObject, URLSessionDataDelegate, Sendable {
    private let exchanges = Mutex<[Int: URLSessionExchange]>([:])
    /// What the transport was configured with that challenges need.
    let policy: ChallengePolicy

    init(policy: ChallengePolicy = ChallengePolicy()) {
        self.policy = policy
    }

    func register(_ exchange: URLSessionExchange, for task: URLSessionTask) {
        let id = task.taskIdentifier
        exchanges.withLock { $0[id] = exchange }
    }

    private func exchange(for task: URLSessionTask) -> URLSessionExchange? {
        let id = task.taskIdentifier
        return exchanges.withLock { $0[id] }
    }

    func urlSession(
        _ session: URLSession, dataTask: URLSessionDataTask, didReceive response: URLResponse,
        completionHandler: @escaping (URLSession.ResponseDisposition) -> Void
    ) {
        let proceed = exchange(for: dataTask)?.receive(response) ?? true
        completionHandler(proceed ? .allow : .cancel)
    }

    func urlSession(_ session: URLSession, dataTask: URLSessionDataTask, didReceive data: Data) {
        if exchange(for: dataTask)?.receive(data) == false {
            dataTask.cancel()
        }
    }

    func urlSession(
        _ session: URLSession, task: URLSessionTask, didSendBodyData bytesSent: Int64, totalBytesSent: Int64,
        totalBytesExpectedToSend: Int64
    ) {
        exchange(for: task)?.sent(totalBytesSent, of: totalBytesExpectedToSend)
    }

    // Redirects are followed above the transports, by one policy for both: every 3xx comes back as the response.
    // FoundationNetworking then hands over the 3xx head and its body (except when its Location is missing or
    // unusable: see URLSessionExchangeStateMachine.completed).
    func urlSession(
        _ session: URLSession, task: URLSessionTask, willPerformHTTPRedirection response: HTTPURLResponse,
        newRequest request: URLRequest, completionHandler: @escaping (URLRequest?) -> Void
    ) {
        completionHandler(nil)
    }

    // Every challenge comes here. There is deliberately no session-level method: without one, Apple's URLSession sends
    // server-trust and client-certificate challenges here too, with the task, so that a refused certificate fails its
    // exchange with the reason rather than as a bare cancellation. A 401 or 407 comes here on every platform;
    // FoundationNetworking on Linux either waits forever or cancels when asked for credentials, so the challenge's
    // response is kept and the challenge cancelled, and the exchange reports that response (without its body, which
    // URLSession does not hand over).
    func urlSession(
        _ session: URLSession, task: URLSessionTask, didReceive challenge: URLAuthenticationChallenge,
        completionHandler: @escaping (URLSession.AuthChallengeDisposition, URLCredential?) -> Void
    ) {
        let exchange = exchange(for: task)
        Self.answer(
            challenge, task: task, policy: policy, report: { exchange?.receiveChallenge($0) },
            fail: { exchange?.fail($0) }, completionHandler: completionHandler)
    }

    /// Answers `challenge` under `policy`, for every session Errand runs: a 401 or 407 goes to `report` as the
    /// response it stands for, a refusal (a certificate the trust rejects) to `fail`, then URLSession gets the
    /// disposition and credential.
    static func answer(
        _ challenge: URLAuthenticationChallenge, task: URLSessionTask, policy: ChallengePolicy,
        report: (URLResponse) -> Void, fail: (ErrandError) -> Void,
        completionHandler: @escaping (URLSession.AuthChallengeDisposition, URLCredential?) -> Void
    ) {
        let answer = ChallengeAnswer(
            challenge.protectionSpace, previousFailureCount: challenge.previousFailureCount, policy: policy)
        if case .reportStatus(let status) = answer, let response = response(to: challenge, status: status, task: task) {
            report(response)
        }
        let response = answer.response(to: challenge, url: task.currentRequest?.url ?? task.originalRequest?.url)
        if let failure = response.failure { fail(failure) }
        completionHandler(response.disposition, response.credential)
    }

    /// The challenge's response; FoundationNetworking hands over none, so it is rebuilt from the status it stands for.
    private static func response(
        to challenge: URLAuthenticationChallenge, status: Int, task: URLSessionTask
    ) -> URLResponse? {
        if let response = challenge.failureResponse { return response }
        let realm = challenge.protectionSpace.realm.map { " realm=\"\($0)\"" } ?? ""
        let header = status == 407 ? "Proxy-Authenticate" : "WWW-Authenticate"
        return task.currentRequest?.url.flatMap { url in
            HTTPURLResponse(
                url: url, statusCode: status, httpVersion: "HTTP/1.1",
                headerFields: [header: "\(challenge.protectionSpace.authenticationMethod)\(realm)"])
        }
    }

    // Apple's URLSession reports each task's timings just before completing it; FoundationNetworking never does.
    func urlSession(_ session: URLSession, task: URLSessionTask, didFinishCollecting metrics: URLSessionTaskMetrics) {
        guard let transaction = metrics.transactionMetrics.last else { return }
        exchange(for: task)?.collect(TransactionTimings(transaction))
    }

    func urlSession(_ session: URLSession, task: URLSessionTask, didCompleteWithError error: (any Error)?) {
        let id = task.taskIdentifier
        let exchange = exchanges.withLock { $0.removeValue(forKey: id) }
        exchange?.complete(error: error)
    }
}
