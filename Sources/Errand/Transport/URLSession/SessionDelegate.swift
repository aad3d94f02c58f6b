import Foundation
import Synchronization
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// The session-level delegate: FoundationNetworking on Linux never calls per-task delegates, so every task's events
/// come here and are routed to its ``URLSessionExchange`` by task identifier.
final class SessionDelegate: NSObject, URLSessionDataDelegate, Sendable {
    private let exchanges = Mutex<[Int: URLSessionExchange]>([:])

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
        _ session: URLSession, task: URLSessionTask, willPerformHTTPRedirection response: HTTPURLResponse,
        newRequest request: URLRequest, completionHandler: @escaping (URLRequest?) -> Void
    ) {
        guard let exchange = exchange(for: task) else { return completionHandler(request) }
        completionHandler(exchange.redirect(from: response, to: request))
    }

    // Errand sends credentials as headers itself, so a 401 is an answer for the client, not a prompt. FoundationNetworking
    // on Linux either waits forever or cancels here; keep the challenge's response and cancel, and the exchange reports
    // that response (without its body, which URLSession does not hand over).
    func urlSession(
        _ session: URLSession, task: URLSessionTask, didReceive challenge: URLAuthenticationChallenge,
        completionHandler: @escaping (URLSession.AuthChallengeDisposition, URLCredential?) -> Void
    ) {
        // FoundationNetworking hands over no failureResponse: rebuild the status line it stands for.
        let status = challenge.protectionSpace.isProxy() ? 407 : 401
        let realm = challenge.protectionSpace.realm.map { " realm=\"\($0)\"" } ?? ""
        let header = status == 407 ? "Proxy-Authenticate" : "WWW-Authenticate"
        let response = challenge.failureResponse
            ?? task.currentRequest?.url.flatMap { url in
                HTTPURLResponse(
                    url: url, statusCode: status, httpVersion: "HTTP/1.1",
                    headerFields: [header: "\(challenge.protectionSpace.authenticationMethod)\(realm)"])
            }
        if let response {
            exchange(for: task)?.receiveChallenge(response)
        }
        completionHandler(.cancelAuthenticationChallenge, nil)
    }

    func urlSession(_ session: URLSession, task: URLSessionTask, didCompleteWithError error: (any Error)?) {
        let id = task.taskIdentifier
        let exchange = exchanges.withLock { $0.removeValue(forKey: id) }
        exchange?.complete(error: error)
    }
}
