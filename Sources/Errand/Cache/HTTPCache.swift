import Foundation

/// A private HTTP cache (RFC 9111) as middleware: fresh responses are served without a request, stale ones are
/// revalidated with `If-None-Match` / `If-Modified-Since`, and ``CacheStatus`` says on every response what happened.
///
/// Entries live in a cost-limited memory LRU, in front of an optional SQLite file. Put the cache first (outermost)
/// in ``ClientConfiguration/middleware`` so that a hit skips retries and rate limits:
///
/// ```swift
/// let cache = HTTPCache.standard(named: "mealdb")        // ~/.cache/errand/mealdb.sqlite, or memory only
/// let client = APIClient(configuration: ClientConfiguration(baseURL: base, middleware: [cache]))
/// ```
///
/// Only `GET` responses are stored; a `HEAD` is answered from them, and its answer freshens them. A successful
/// request of an unsafe method (`POST`, `PUT`, `PATCH`, `DELETE`, …) removes what is stored for its URL and for the
/// same-origin URLs its `Location` and `Content-Location` name. Requests that carry their own conditional headers
/// pass through untouched; a single byte `Range` is answered from a stored complete response. The request
/// directives (`max-age`, `min-fresh`, `max-stale`, `only-if-cached`, `no-cache`, `no-store`) are read from the
/// request's `Cache-Control` and from ``RequestOptions/cacheControl``; `stale-while-revalidate` responses are
/// served stale and revalidated in the background. <doc:CachingResponses> describes the rules in full.
public final class HTTPCache: Middleware {
    /// What the cache does by default; every field can be changed per request through ``RequestOptions``.
    public struct Configuration: Sendable {
        /// The policy for requests that do not set ``RequestOptions/cachePolicy``. Default ``CachePolicy/useProtocol``;
        /// ``CachePolicy/cacheOnly`` makes the whole client offline.
        public var policy: CachePolicy
        /// How long a response that states no lifetime (no `max-age`, no `Expires`) stays fresh, for APIs that send
        /// no cache headers. `nil` (the default) uses the RFC's heuristic: a tenth of the time since `Last-Modified`,
        /// at most a day, else zero (stored, but revalidated before each use). Directives the server does send —
        /// `no-store`, `no-cache`, `max-age` — still win.
        public var defaultTTL: Duration?
        /// How long past its lifetime an entry may still be served, marked ``CacheStatus/stale``, when the network
        /// fails or the server answers 500, 502, 503 or 504. `nil` (the default) allows only what the response's own
        /// `stale-if-error` directive allows. Never applies to `must-revalidate` responses.
        public var staleIfError: Duration?
        /// The most bytes kept in memory. Default 16 MB; zero keeps nothing in memory.
        public var memoryCostLimit: Int
        /// The most bytes of entries kept on disk (when there is a file). Default 100 MB.
        public var diskSizeLimit: Int

        /// Creates a configuration with the defaults described on each property.
        public init(
            policy: CachePolicy = .useProtocol, defaultTTL: Duration? = nil, staleIfError: Duration? = nil,
            memoryCostLimit: Int = 16 * 1024 * 1024, diskSizeLimit: Int = 100 * 1024 * 1024
        ) {
            self.policy = policy
            self.defaultTTL = defaultTTL
            self.staleIfError = staleIfError
            self.memoryCostLimit = memoryCostLimit
            self.diskSizeLimit = diskSizeLimit
        }
    }

    /// The configuration.
    public let configuration: Configuration
    /// The SQLite file, or `nil` for a memory-only cache.
    public var fileURL: URL? { store.disk?.fileURL }

    let store: ResponseStore
    /// The `stale-while-revalidate` revalidations running in the background.
    let revalidator = BackgroundRevalidator()

    /// Why this cache keeps entries in memory although a file was asked for (``standard(named:configuration:)``
    /// could not open its file); `nil` when it has the file it was made with, or was made for memory only.
    public let storageProblem: CacheStorageError?

    /// Creates a cache that keeps entries in memory only (lost when the process ends).
    public convenience init(configuration: Configuration = Configuration()) {
        self.init(configuration: configuration, storageProblem: nil)
    }

    private init(configuration: Configuration, storageProblem: CacheStorageError?) {
        self.configuration = configuration
        self.storageProblem = storageProblem
        store = ResponseStore(memory: MemoryCache(costLimit: configuration.memoryCostLimit), disk: nil)
    }

    /// Creates a cache backed by a SQLite file (created with mode 0600, its folder with 0700 when missing).
    ///
    /// A damaged cache file is replaced by an empty cache. Throws when the file cannot be created or opened at all
    /// (a read-only folder, say), when a symbolic link is anywhere on its path (before anything is created), and when
    /// the file is not recognisably a cache of Errand's (not a database, another program's database), which is left
    /// as it is.
    public init(fileURL: URL, configuration: Configuration = Configuration()) throws(CacheStorageError) {
        self.configuration = configuration
        storageProblem = nil
        store = ResponseStore(
            memory: MemoryCache(costLimit: configuration.memoryCostLimit),
            disk: try SQLiteStore(fileURL: fileURL, sizeLimit: configuration.diskSizeLimit))
    }

    /// The cache command-line tools use: a file at ``defaultFileURL(named:environment:)``, or memory only when that
    /// file cannot be opened, with the reason in ``storageProblem`` (another process holds it, say). Never throws,
    /// so a read-only home folder does not stop a tool.
    public static func standard(named name: String, configuration: Configuration = Configuration()) -> HTTPCache {
        do {
            return try HTTPCache(fileURL: defaultFileURL(named: name), configuration: configuration)
        } catch {
            return HTTPCache(configuration: configuration, storageProblem: error)
        }
    }

    // MARK: Managing what is stored

    /// Removes every variant stored for a URL.
    public func remove(_ url: URL) {
        store.remove(url: CacheKey.primary(url))
    }

    /// Removes everything, in memory and on disk.
    public func removeAll() {
        store.removeAll()
    }

    /// Bytes held in memory.
    public var memoryByteCount: Int { store.memory.totalCost }

    /// Bytes of entries on disk (zero without a file).
    public var diskByteCount: Int { store.disk?.byteCount ?? 0 }

    /// Entries on disk (zero without a file).
    public var diskEntryCount: Int { store.disk?.entryCount ?? 0 }
}
