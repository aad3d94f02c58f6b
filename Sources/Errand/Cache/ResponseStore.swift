import Foundation

/// The two tiers together: a memory LRU of decoded entries in front of the optional SQLite file.
///
/// Memory holds every variant known for a URL in one slot; a request whose variant is not in memory falls through
/// to disk, whose answer then replaces the slot. A memory hit touches neither SQLite nor any decoding.
struct ResponseStore: Sendable {
    let memory: MemoryCache<String, [CachedResponse]>
    let disk: SQLiteStore?

    /// The stored entry that answers a request with these headers, if any; one whose body is over `bodyLimit` (the
    /// request's ``TransportRequest/maxResponseBodySize``) does not, as it would fail on the network.
    func response(for url: String, requestHeaders: HTTPHeaders, bodyLimit: Int = .max) -> CachedResponse? {
        let within = { (response: CachedResponse) in response.body.count <= bodyLimit ? response : nil }
        if let variants = memory.value(for: url), let match = variants.first(where: { $0.matches(requestHeaders) }) {
            return within(match)
        }
        guard let disk else { return nil }
        let variants = disk.responses(for: url)
        guard !variants.isEmpty else { return nil }
        memory.set(variants, for: url, cost: variants.reduce(0) { $0 + $1.cost })
        return variants.first { $0.matches(requestHeaders) }.flatMap(within)
    }

    /// Stores an entry in both tiers, replacing the variant with the same secondary key.
    func store(_ response: CachedResponse) {
        memory.update(response.url) { variants in
            var kept = (variants ?? []).filter { $0.variant != response.variant }
            kept.append(response)
            return (kept, kept.reduce(0) { $0 + $1.cost })
        }
        disk?.store(response)
    }

    /// Removes every variant of a URL from both tiers.
    func remove(url: String) {
        memory.removeValue(for: url)
        disk?.remove(url: url)
    }

    /// Empties both tiers.
    func removeAll() {
        memory.removeAll()
        disk?.removeAll()
    }
}
