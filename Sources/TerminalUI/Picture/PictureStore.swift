import Foundation

/// The pictures a browser shows, each fetched once (through the tool's data pipeline and its cache) and decoded off
/// the main actor; the screen is redrawn as each one arrives.
@MainActor
public final class PictureStore {
    private var slots: [URL: PictureSlot] = [:]
    private let fetch: @Sendable (URL) async throws -> Data
    private let changed: @MainActor () -> Void

    /// A store that fetches with `fetch` and calls `changed` when a picture arrived or failed.
    public init(fetch: @escaping @Sendable (URL) async throws -> Data, changed: @escaping @MainActor () -> Void) {
        self.fetch = fetch
        self.changed = changed
    }

    /// Where a picture stands; asking for one not asked for before starts fetching it.
    public func slot(for url: URL?) -> PictureSlot {
        guard let url else { return .unavailable }
        if let slot = slots[url] { return slot }
        guard PictureDecoder.isAvailable else { return .unavailable }
        slots[url] = .loading
        let fetch = fetch
        Task {
            let slot = await Self.load(url, fetch: fetch)
            self.slots[url] = slot
            self.changed()
        }
        return .loading
    }

    /// Forgets the pictures that failed, so that a retry fetches them again.
    public func forgetFailures() {
        slots = slots.filter { $0.value != .unavailable }
    }

    private nonisolated static func load(_ url: URL, fetch: @Sendable (URL) async throws -> Data) async -> PictureSlot {
        guard let data = try? await fetch(url), let picture = PictureDecoder.decode(data, minimumSide: 96) else {
            return .unavailable
        }
        return .ready(picture)
    }
}

/// A picture on screen: on its way, here, or not to be had.
public enum PictureSlot: Hashable, Sendable {
    /// Being fetched; a grey placeholder shows.
    case loading
    /// Decoded.
    case ready(Picture)
    /// Failed, absent, or this build has no decoder; a labelled placeholder shows.
    case unavailable
}
