import Foundation
import MetMirror
import MetMuseum

/// Where the museum app's data comes from: The Met's API, or a mirror of it on disk (made by `met mirror` or
/// ``/MetMirror/CollectionMirror``), which answers the same calls offline.
///
/// Every view model takes a ``client``: ``MuseumSearchStore``, ``ObjectDetailModel``, ``DepartmentsModel`` and
/// ``ObjectIDsModel`` work the same way from either source. From a mirror, searches rank by full-text relevance and
/// skip nothing the mirror holds; objects the Met did not serve are reported as it reported them.
public enum MuseumDataSource: Sendable {
    /// The Met's API through this client.
    case met(MetClient)
    /// The mirror in a folder.
    case mirror(MirrorStore)

    /// Opens the mirror in `directory`.
    ///
    /// - Throws: ``/MetMirror/MirrorStoreError`` when it cannot be opened.
    public static func mirror(in directory: URL) throws(MirrorStoreError) -> MuseumDataSource {
        .mirror(try MirrorStore(directory: directory))
    }

    /// The SDK client that answers from this source.
    public var client: MetClient {
        switch self {
        case .met(let client): return client
        case .mirror(let store): return MetClient(mirror: store)
        }
    }
}

extension MuseumSearchStore {
    /// Searches a data source: The Met, or a mirror offline.
    public convenience init(source: MuseumDataSource, limit: Int = 20, rate: Double? = nil, concurrency: Int = 8) {
        self.init(client: source.client, limit: limit, rate: rate, concurrency: concurrency)
    }
}

extension ObjectDetailModel {
    /// Loads one object from a data source: The Met, or a mirror offline.
    public convenience init(objectID: Int, source: MuseumDataSource) {
        self.init(objectID: objectID, client: source.client)
    }
}
