import Foundation

/// Loads blobs — images, thumbnails, any bytes addressed by URL — once: concurrent requests for one URL share a
/// single download, and results are kept in a memory LRU in front of an optional SQLite file.
///
/// ```swift
/// let thumbnails = DataPipeline.standard(named: "met-images", client: client)
/// await thumbnails.prefetch(urls)
/// let bytes = try await thumbnails.data(for: url)
/// ```
///
/// A download is cancelled when every task waiting for it has been cancelled (and no ``prefetch(_:)`` asked for
/// it); a task that cancels while others still wait only stops waiting. Blobs are treated as immutable: a stored
/// blob is served until it is evicted by size or removed, without asking the server again. Downloads go through the
/// client, so its middleware and observers apply (give the pipeline a client without an ``HTTPCache`` to avoid
/// storing each blob twice).
public actor DataPipeline {
    /// Limits of the pipeline's caches.
    public struct Configuration: Sendable {
        /// The most bytes kept in memory. Default 32 MB.
        public var memoryCostLimit: Int
        /// The most bytes kept on disk (when there is a file). Default 200 MB.
        public var diskSizeLimit: Int

        /// Creates a configuration with the defaults described on each property.
        public init(memoryCostLimit: Int = 32 * 1024 * 1024, diskSizeLimit: Int = 200 * 1024 * 1024) {
            self.memoryCostLimit = memoryCostLimit
            self.diskSizeLimit = diskSizeLimit
        }
    }

    /// The client downloads go through.
    public nonisolated let client: APIClient
    /// The SQLite file, or `nil` when blobs are kept in memory only.
    public nonisolated var fileURL: URL? { disk?.fileURL }

    nonisolated let memory: MemoryCache<String, Data>
    nonisolated let disk: SQLiteStore?
    private var downloads: [String: Download] = [:]
    private var nextID = 0

    /// Creates a pipeline that keeps blobs in memory only.
    public init(client: APIClient, configuration: Configuration = Configuration()) {
        self.client = client
        memory = MemoryCache(costLimit: configuration.memoryCostLimit)
        disk = nil
    }

    /// Creates a pipeline that also keeps blobs in a SQLite file (mode 0600); a damaged file is replaced.
    public init(client: APIClient, fileURL: URL, configuration: Configuration = Configuration())
        throws(CacheStorageError)
    {
        self.client = client
        memory = MemoryCache(costLimit: configuration.memoryCostLimit)
        disk = try SQLiteStore(fileURL: fileURL, sizeLimit: configuration.diskSizeLimit)
    }

    /// A pipeline with its file at ``HTTPCache/defaultFileURL(named:environment:)``, or in memory only when that
    /// file cannot be opened.
    public static func standard(named name: String, client: APIClient, configuration: Configuration = Configuration())
        -> DataPipeline
    {
        (try? DataPipeline(client: client, fileURL: HTTPCache.defaultFileURL(named: name), configuration: configuration))
            ?? DataPipeline(client: client, configuration: configuration)
    }

    // MARK: Loading

    /// The bytes at a URL: from memory, else from disk, else downloaded (sharing a download already under way).
    ///
    /// Throws ``ErrandError/cancelled`` when the calling task is cancelled, and the download's error when it fails.
    public nonisolated func data(for url: URL) async throws(ErrandError) -> Data {
        let key = CacheKey.primary(url)
        if let data = memory.value(for: key) { return data }
        do {
            return try await wait(for: url, key: key)
        } catch {
            throw ErrandError(error)
        }
    }

    /// The bytes at a URL if they are in memory now; never waits.
    public nonisolated func cachedData(for url: URL) -> Data? {
        memory.value(for: CacheKey.primary(url))
    }

    /// Starts downloading URLs that are not cached yet, so that later ``data(for:)`` calls find them ready.
    public func prefetch(_ urls: [URL]) {
        for url in urls {
            let key = CacheKey.primary(url)
            guard memory.value(for: key) == nil else { continue }
            var download = downloads[key] ?? start(url, key: key)
            download.isPrefetched = true
            downloads[key] = download
        }
    }

    /// Withdraws a ``prefetch(_:)``: downloads nobody else is waiting for are cancelled.
    public func cancelPrefetching(_ urls: [URL]) {
        for url in urls {
            let key = CacheKey.primary(url)
            guard var download = downloads[key] else { continue }
            download.isPrefetched = false
            downloads[key] = download
            cancelIfUnwanted(key)
        }
    }

    /// How many downloads are under way.
    public var activeDownloadCount: Int { downloads.count }

    /// Removes every stored blob, in memory and on disk. Downloads under way are not affected.
    public nonisolated func removeAll() {
        memory.removeAll()
        disk?.removeAll()
    }

    // MARK: Coalescing

    private func wait(for url: URL, key: String) async throws -> Data {
        if let data = memory.value(for: key) { return data }
        nextID += 1
        let id = nextID
        return try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { continuation in
                guard !Task.isCancelled else {
                    continuation.resume(throwing: ErrandError.cancelled)
                    return
                }
                var download = downloads[key] ?? start(url, key: key)
                download.waiters[id] = continuation
                downloads[key] = download
            }
        } onCancel: {
            Task { await self.stopWaiting(id, key: key) }
        }
    }

    private func start(_ url: URL, key: String) -> Download {
        nextID += 1
        let token = nextID
        let (client, memory, disk) = (client, memory, disk)
        let task = Task {
            let result: Result<Data, ErrandError>
            do {
                result = .success(try await Self.load(url, key: key, client: client, memory: memory, disk: disk))
            } catch {
                result = .failure(ErrandError(error))
            }
            self.finish(key, token: token, result: result)
        }
        return Download(token: token, task: task)
    }

    private func stopWaiting(_ id: Int, key: String) {
        guard var download = downloads[key], let continuation = download.waiters.removeValue(forKey: id) else { return }
        downloads[key] = download
        continuation.resume(throwing: ErrandError.cancelled)
        cancelIfUnwanted(key)
    }

    private func cancelIfUnwanted(_ key: String) {
        guard let download = downloads[key], download.waiters.isEmpty, !download.isPrefetched else { return }
        downloads[key] = nil
        download.task.cancel()
    }

    private func finish(_ key: String, token: Int, result: Result<Data, ErrandError>) {
        guard let download = downloads[key], download.token == token else { return }
        downloads[key] = nil
        for continuation in download.waiters.values { continuation.resume(with: result) }
    }

    /// Disk first, then the network; what is downloaded is kept in both tiers.
    private nonisolated static func load(
        _ url: URL, key: String, client: APIClient, memory: MemoryCache<String, Data>, disk: SQLiteStore?
    ) async throws(ErrandError) -> Data {
        if let stored = disk?.responses(for: key).first {
            memory.set(stored.body, for: key, cost: stored.body.count)
            return stored.body
        }
        let requestTime = client.configuration.timeline.date
        let response = try await client.send(Request<Data>(url: url, headers: ["Accept": "*/*"]))
        memory.set(response.value, for: key, cost: response.value.count)
        var headers = HTTPHeaders()
        if let type = response.headers["Content-Type"] { headers["Content-Type"] = type }
        disk?.store(
            CachedResponse(
                url: key, variant: "", status: response.status, headers: headers, body: response.value,
                requestTime: requestTime, responseTime: client.configuration.timeline.date))
        return response.value
    }

    /// One download and who wants it.
    private struct Download {
        let token: Int
        let task: Task<Void, Never>
        var waiters: [Int: CheckedContinuation<Data, any Error>] = [:]
        var isPrefetched = false
    }
}
