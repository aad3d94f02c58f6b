import Errand
import Foundation

/// Writes a ``Gallery`` into a folder: `index.html` and a `thumbnails/` folder of downloaded pictures.
///
/// The page has no external references (styles and the filter box's script are inline, pictures are relative
/// files), so it works offline and can be zipped or moved as a whole. When an item's picture is not there (a 4xx
/// answer, or offline not cached: ``DataPipeline/fallsBack(after:)``), its ``GalleryItem/fallbackImageURL`` is
/// downloaded instead. A picture that cannot be had either way gets a placeholder and is counted, never fatal.
public struct GalleryWriter: Sendable {
    /// How many pictures are downloaded at once.
    public var maxConcurrentDownloads: Int

    /// Creates a writer.
    public init(maxConcurrentDownloads: Int = 6) {
        self.maxConcurrentDownloads = max(1, maxConcurrentDownloads)
    }

    /// Downloads the pictures with `loadImage` and writes the page.
    /// - Throws: ``Failure`` (exit 1) when the folder or a file cannot be written.
    public func write(
        _ gallery: Gallery, to directory: URL, loadImage: @escaping @Sendable (URL) async throws -> Data
    ) async throws(Failure) -> GalleryReport {
        let thumbnails = directory.appendingPathComponent("thumbnails", isDirectory: true)
        var isFolder: ObjCBool = false
        if FileManager.default.fileExists(atPath: directory.path, isDirectory: &isFolder), !isFolder.boolValue {
            throw Failure(.failure, ToolText.sentence("gallery.isAFile", ["path": directory.path]))
        }
        do {
            try FileManager.default.createDirectory(at: thumbnails, withIntermediateDirectories: true)
        } catch {
            throw Failure(
                .failure,
                ToolText.sentence("gallery.cannotCreateFolder", ["path": directory.path, "reason": Self.reason(error)]))
        }
        let files = await download(gallery.items, into: thumbnails, loadImage: loadImage)
        let page = GalleryPage(gallery: gallery, thumbnails: files).html()
        let index = directory.appendingPathComponent("index.html")
        do {
            try Data(page.utf8).write(to: index, options: .atomic)
        } catch {
            throw Failure(
                .failure, ToolText.sentence("gallery.cannotWrite", ["path": index.path, "reason": Self.reason(error)]))
        }
        let wanted = gallery.items.filter { $0.imageURL != nil }.count
        return GalleryReport(indexFile: index, imagesSaved: files.count, imagesFailed: wanted - files.count)
    }

    /// Downloads every item's picture; returns the saved file name (relative to the page) by item index.
    private func download(
        _ items: [GalleryItem], into folder: URL, loadImage: @escaping @Sendable (URL) async throws -> Data
    ) async -> [Int: String] {
        let jobs = items.enumerated().compactMap { index, item in
            item.imageURL.map { (index, $0, item.fallbackImageURL) }
        }
        var saved: [Int: String] = [:]
        await withTaskGroup(of: (Int, String?).self) { group in
            var next = 0
            func startNext() {
                guard next < jobs.count else { return }
                let (index, url, fallback) = jobs[next]
                next += 1
                group.addTask {
                    guard let data = await Self.picture(at: url, fallingBackTo: fallback, loadImage: loadImage),
                        !data.isEmpty
                    else { return (index, nil) }
                    let name = String(format: "%03d", index + 1) + "." + ImageKind.fileExtension(of: data, url: url)
                    do {
                        try data.write(to: folder.appendingPathComponent(name), options: .atomic)
                        return (index, "thumbnails/" + name)
                    } catch {
                        return (index, nil)
                    }
                }
            }
            for _ in 0..<maxConcurrentDownloads { startNext() }
            for await (index, file) in group {
                if let file { saved[index] = file }
                startNext()
            }
        }
        return saved
    }

    /// The picture at `url`, else at `fallback` when `url` is not there; `nil` when neither can be had.
    private static func picture(
        at url: URL, fallingBackTo fallback: URL?, loadImage: @Sendable (URL) async throws -> Data
    ) async -> Data? {
        do {
            return try await loadImage(url)
        } catch {
            guard let fallback, fallback != url, let failure = error as? ErrandError,
                DataPipeline.fallsBack(after: failure)
            else { return nil }
            return try? await loadImage(fallback)
        }
    }

    /// The cause as a person reads it: the system's words for the underlying error (`Permission denied`), never a
    /// Foundation domain and code.
    private static func reason(_ error: any Error) -> String {
        let error = error as NSError
        if let underlying = error.userInfo[NSUnderlyingErrorKey] as? NSError, underlying.domain == NSPOSIXErrorDomain {
            return String(cString: strerror(Int32(underlying.code))) + "."
        }
        if error.domain == NSPOSIXErrorDomain { return String(cString: strerror(Int32(error.code))) + "." }
        return error.localizedFailureReason ?? "the file system refused it."
    }
}

/// Recognises picture formats by their first bytes, so a file gets the extension browsers expect.
enum ImageKind {
    static func fileExtension(of data: Data, url: URL) -> String {
        let bytes = [UInt8](data.prefix(12))
        if bytes.starts(with: [0xFF, 0xD8, 0xFF]) { return "jpg" }
        if bytes.starts(with: [0x89, 0x50, 0x4E, 0x47]) { return "png" }
        if bytes.starts(with: Array("GIF8".utf8)) { return "gif" }
        if bytes.count >= 12, bytes.starts(with: Array("RIFF".utf8)), Array(bytes[8..<12]) == Array("WEBP".utf8) {
            return "webp"
        }
        // Never `svg`: an SVG can carry script, which runs when the picture's link opens the file itself.
        let suffix = url.pathExtension.lowercased()
        return ["jpg", "jpeg", "png", "gif", "webp"].contains(suffix) ? suffix : "img"
    }
}
