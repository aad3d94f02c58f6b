import Errand
import ErrandTesting
import Foundation
import MetMuseum
import Synchronization

/// Holds a stubbed request until the test lets it go, so a test can look at the state while it is in flight.
final class Gate: Sendable {
    private let arrivals: AsyncStream<Void>
    private let arrived: AsyncStream<Void>.Continuation
    private let releases = Mutex<[CheckedContinuation<Void, Never>]>([])
    private let opened = Mutex(false)

    init() {
        (arrivals, arrived) = AsyncStream.makeStream(of: Void.self, bufferingPolicy: .unbounded)
    }

    /// Called by the stub: reports the arrival, then waits until ``open()``.
    func pass() async {
        arrived.yield()
        await withCheckedContinuation { continuation in
            let isOpen = opened.withLock { open in
                if !open { releases.withLock { $0.append(continuation) } }
                return open
            }
            if isOpen { continuation.resume() }
        }
    }

    /// Waits until a request reached the gate.
    func waitForArrival() async {
        var iterator = arrivals.makeAsyncIterator()
        _ = await iterator.next()
    }

    /// Lets every held and future request through.
    func open() {
        opened.withLock { $0 = true }
        for continuation in releases.withLock({ list in defer { list.removeAll() }; return list }) {
            continuation.resume()
        }
    }
}

/// A Met client on a stub transport, without rate limiting worth noticing.
func stubClient(_ stub: StubTransport) -> MetClient {
    MetClient(baseURL: URL(string: "https://met.example")!, transport: stub)
}

/// Answers a search with these IDs.
func respondToSearch(_ stub: StubTransport, ids: [Int]) {
    stub.respond(to: "search", json: #"{"total":\#(ids.count + 100),"objectIDs":\#(ids)}"#)
}

/// The JSON of a small object.
func objectJSON(_ id: Int, title: String) -> String {
    #"{"objectID":\#(id),"title":"\#(title)","isHighlight":false,"isPublicDomain":true,"primaryImage":"","additionalImages":[],"constituents":null,"tags":null,"measurements":null,"objectBeginDate":1900,"objectEndDate":1900}"#
}

/// Answers objects/{id} with a small object.
func respondWithObject(_ stub: StubTransport, _ id: Int, title: String, gate: Gate? = nil) {
    let body = Data(objectJSON(id, title: title).utf8)
    stub.register(path: "objects/\(id)", reply: .dynamic { request in
        if let gate { await gate.pass() }
        return TransportResponse(status: 200, headers: ["Content-Type": "application/json"], body: body, url: request.url)
    })
}
