import Errand
import ErrandTesting
import Foundation
import TestSupport
import MetMuseum

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
    stub.register(
        path: "objects/\(id)",
        reply: .dynamic { request in
            if let gate { await gate.pass() }
            return TransportResponse(
                status: 200, headers: ["Content-Type": "application/json"], body: body, url: request.url)
        })
}
