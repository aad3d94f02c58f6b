import Foundation

/// An HTTP Archive (HAR 1.2): the format browsers' developer tools, proxies and HAR viewers read and write.
///
/// Only the fields Errand writes or reads are modelled; a file with more (pages, initiators, a browser's own `_`
/// fields) decodes all the same, and what a browser may leave out is optional here.
public struct HAR: Codable, Sendable, Hashable {
    /// The archive's one root object.
    public var log: Log

    /// Creates an archive.
    public init(log: Log) { self.log = log }

    /// Reads an archive from a file of at most `maxFileSize` bytes.
    ///
    /// Decoding holds the file's text and what is decoded from it in memory at once, several times the file's size,
    /// so a larger file is refused before a byte of it is read: that bounds what reading a recording can cost,
    /// whatever file is given. A FIFO, a device or a folder is refused without waiting on it.
    ///
    /// - Throws: ``HARFileError`` for a file that cannot be read or is too large; `DecodingError` for a file that is
    ///   not a HAR archive.
    public init(contentsOf file: URL, maxFileSize: Int = HAR.defaultMaxFileSize) throws {
        let data: Data
        do {
            data = try RegularFile.contents(of: file.path, limit: max(0, maxFileSize))
        } catch {
            throw HARFileError(file: file, reason: error.reason, isTooLarge: error.kind == .tooLarge)
        }
        self = try JSONDecoder().decode(HAR.self, from: data)
    }

    /// The largest file ``init(contentsOf:maxFileSize:)`` reads by default: 64 MB, room for every body up to the
    /// largest limit the SDKs set, several times over.
    public static let defaultMaxFileSize = 64_000_000

    /// The root object: who wrote it, and the exchanges in the order they were made.
    public struct Log: Codable, Sendable, Hashable {
        /// The format's version, `1.2`.
        public var version: String
        /// The program that wrote the file.
        public var creator: Creator
        /// The exchanges.
        public var entries: [Entry]
        /// A note about the whole archive (Errand writes one only to warn that it holds secrets in clear).
        public var comment: String?

        /// Creates a log.
        public init(version: String = "1.2", creator: Creator, entries: [Entry] = [], comment: String? = nil) {
            self.version = version
            self.creator = creator
            self.entries = entries
            self.comment = comment
        }
    }

    /// The program that wrote an archive.
    public struct Creator: Codable, Sendable, Hashable {
        /// Its name.
        public var name: String
        /// Its version.
        public var version: String
        /// A note about the program or how it was run.
        public var comment: String?

        /// Creates a creator.
        public init(name: String, version: String, comment: String? = nil) {
            self.name = name
            self.version = version
            self.comment = comment
        }
    }

    /// A name and a value: a header field, a query parameter, a cookie or a form field.
    public struct Pair: Codable, Sendable, Hashable {
        /// The name.
        public var name: String
        /// The value.
        public var value: String

        /// Creates a pair.
        public init(name: String, value: String) {
            self.name = name
            self.value = value
        }
    }
}

/// A HAR file that could not be read: missing, not a regular file, or larger than the limit a recording is read up to.
public struct HARFileError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The file.
    public var file: URL
    /// Why, as the end of a sentence that starts with the file's name (`is larger than 64000000 bytes`).
    public var reason: String
    /// Whether the file was refused for its size alone.
    public var isTooLarge: Bool

    /// Creates an error.
    public init(file: URL, reason: String, isTooLarge: Bool = false) {
        self.file = file
        self.reason = reason
        self.isTooLarge = isTooLarge
    }

    /// One sentence: the file and why it was not read.
    public var description: String {
        let advice = isTooLarge ? ", the most a recording is read up to; record fewer or smaller exchanges" : ""
        return "The recording \(file.path) \(reason)\(advice)."
    }
}
