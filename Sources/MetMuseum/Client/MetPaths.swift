import Errand
import Foundation

/// The Met Collection API's endpoints as Errand requests, relative to the server root.
enum MetPaths {
    /// The API's path below the server root.
    static let prefix = ["public", "collection", "v1"]

    /// `objects[?metadataDate=YYYY-MM-DD&departmentIds=1|3]`.
    static func objectIDs(updatedSince: Date?, departmentIDs: [Int]) -> Request<ObjectIDList> {
        var query: [QueryItem] = []
        if let updatedSince { query.append(QueryItem("metadataDate", MetadataDate.day(updatedSince))) }
        if !departmentIDs.isEmpty {
            query.append(QueryItem("departmentIds", departmentIDs.map(String.init).joined(separator: "|")))
        }
        return Request(segments: prefix + ["objects"], query: query)
    }

    /// `objects/{id}`.
    static func object(id: Int) -> Request<MetObject> {
        Request(segments: prefix + ["objects", String(id)])
    }

    /// `departments`.
    static func departments() -> Request<DepartmentList> {
        Request(segments: prefix + ["departments"])
    }

    /// `search?…&q=…`, `q` last.
    static func search(_ query: SearchQuery) throws(MetError) -> Request<ObjectIDList> {
        Request(segments: prefix + ["search"], query: try query.queryItems())
    }
}
