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

    func urlSession(_ session: URLSession, task: URLSessionTask, didCompleteWithError error: (any Error)?) {
        let id = task.taskIdentifier
        let exchange = exchanges.withLock { $0.removeValue(forKey: id) }
        exchange?.complete(error: error)
    }
}
