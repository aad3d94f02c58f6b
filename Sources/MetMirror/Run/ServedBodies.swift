import Errand
import Foundation
import Synchronization

/// Keeps the body of every object the Met serves (`…/objects/{id}` answered 200) until the mirror stores it, so
/// the mirror holds each object's JSON exactly as served while the SDK decodes it as usual.
///
/// It is middleware, first in the chain, so it sees every answer the client's own middleware produced, whatever
/// the transport. Entries live only between the answer and the batch that takes them: memory stays flat.
final class ServedBodies: Middleware {
    private let bodies = Mutex<[Int: Data]>([:])

    func intercept(_ request: TransportRequest, context: MiddlewareContext, next: @escaping Next) async throws
        -> TransportResponse
    {
        let response = try await next(request)
        if response.status == 200, let id = Self.objectID(in: request.url) {
            bodies.withLock { $0[id] = response.body }
        }
        return response
    }

    /// The body served for an object, removed from the middleware.
    func take(_ id: Int) -> Data? {
        bodies.withLock { $0.removeValue(forKey: id) }
    }

    /// Forgets every body not taken.
    func removeAll() {
        bodies.withLock { $0.removeAll() }
    }

    /// How many bodies wait to be taken.
    var count: Int { bodies.withLock { $0.count } }

    /// The ID of an `…/objects/{id}` URL.
    static func objectID(in url: URL) -> Int? {
        let components = url.pathComponents
        guard components.count >= 2, components[components.count - 2] == "objects" else { return nil }
        return Int(components[components.count - 1])
    }
}
