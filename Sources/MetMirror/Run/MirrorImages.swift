import Errand
import Foundation
import MetMuseum

/// Which pictures a mirror keeps besides the records.
public enum MirrorImages: Sendable, Hashable {
    /// None: the image URLs are stored, the pictures are not.
    case none
    /// Each object's web-sized picture (`primaryImageSmall`), until the pictures stored reach `budget` bytes.
    case small(budget: Int)
}

extension MirrorStore {
    /// Up to `limit` stored objects with a small picture not fetched yet, while the pictures stored stay below
    /// `budget` bytes; none once the budget is reached.
    func imagesWanted(limit: Int, budget: Int) throws(MirrorStoreError) -> [(id: Int, url: URL)] {
        try access { sqlite in
            guard try sqlite.integer("SELECT coalesce(sum(length(bytes)), 0) FROM images") < budget else { return [] }
            var wanted: [(id: Int, url: URL)] = []
            try sqlite.query(
                """
                SELECT id, primary_image_small FROM objects
                WHERE primary_image_small IS NOT NULL AND id NOT IN (SELECT id FROM images) ORDER BY id LIMIT ?
                """, [.int(limit)]
            ) { row in
                if let text = row.text(1), let url = URL(string: text) { wanted.append((Int(row.integer(0)), url)) }
            }
            return wanted
        }
    }

    /// Stores pictures in one transaction; an empty body records a picture that could not be fetched, so that it
    /// is not asked for again.
    func storeImages(_ images: [(id: Int, url: URL, bytes: Data)]) throws(MirrorStoreError) {
        guard !images.isEmpty else { return }
        try access { sqlite in
            try sqlite.transaction {
                for image in images {
                    try sqlite.query(
                        "INSERT OR REPLACE INTO images (id, url, bytes) VALUES (?, ?, ?)",
                        [.int(image.id), .text(image.url.absoluteString), .blob(image.bytes)])
                }
            }
        }
    }

    /// A stored picture's bytes, or `nil` when none is stored.
    public func image(id: Int) throws(MirrorStoreError) -> Data? {
        try access { sqlite in
            var bytes: Data?
            try sqlite.query("SELECT bytes FROM images WHERE id = ? AND length(bytes) > 0", [.int(id)]) {
                bytes = $0.data(0)
            }
            return bytes
        }
    }

    /// How many pictures are stored, and their bytes.
    public func imageTotals() throws(MirrorStoreError) -> (count: Int, bytes: Int) {
        try access { sqlite in
            var totals = (count: 0, bytes: 0)
            try sqlite.query("SELECT count(*), coalesce(sum(length(bytes)), 0) FROM images WHERE length(bytes) > 0") {
                totals = (Int($0.integer(0)), Int($0.integer(1)))
            }
            return totals
        }
    }
}

extension CollectionMirror {
    /// Fetches one round of missing small pictures through the client (its middleware, within the budget) and
    /// stores them; returns how many it settled, 0 when none is wanted or the budget is spent.
    func fetchImages(_ images: MirrorImages, limit: Int, concurrency: Int) async throws -> Int {
        guard case .small(let budget) = images else { return 0 }
        let wanted = try store.imagesWanted(limit: limit, budget: budget)
        guard !wanted.isEmpty else { return 0 }
        let api = client.client
        let fanOut = FanOut(wanted.map(\.id), maxConcurrent: concurrency, rateLimiter: client.rateLimiter) { id in
            guard let url = wanted.first(where: { $0.id == id })?.url else { return Data() }
            return try await api.send(Request<Data>(url: url)).value
        }
        var fetched: [(id: Int, url: URL, bytes: Data)] = []
        for (result, image) in zip(await fanOut.results(), wanted) {
            switch result.result {
            case .success(let bytes):
                fetched.append((image.id, image.url, bytes))
            case .failure(let error):
                // A picture that is not there (404) is recorded as missing; anything that concerns the whole
                // service stops the run as an object's failure would.
                switch error {
                case .unacceptableStatus(let failure) where failure.status == 404 || failure.status == 410:
                    fetched.append((image.id, image.url, Data()))
                case .blocked(let failure):
                    throw MetError.blocked(failure)
                default:
                    throw MetError.request(error)
                }
            }
        }
        try store.storeImages(fetched)
        return fetched.count
    }
}
