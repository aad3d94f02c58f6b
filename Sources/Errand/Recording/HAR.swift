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

    /// Reads an archive from a file.
    public init(contentsOf file: URL) throws {
        self = try JSONDecoder().decode(HAR.self, from: Data(contentsOf: file))
    }

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
