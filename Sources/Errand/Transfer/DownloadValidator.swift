import Foundation

extension DownloadStateMachine {
    /// How a server identifies the version of a file, for `If-Range`: only ever a strong validator, because a resume
    /// joins bytes of two responses and only a strong validator promises they are bytes of one version.
    struct Validator: Sendable, Hashable, Codable {
        /// A strong ETag or a Last-Modified date, as the server sent it.
        var value: String
        /// Whether ``value`` is an ETag (else a Last-Modified date).
        var isETag: Bool

        /// The strong validator a response offers, or `nil` when it offers none.
        ///
        /// A strong ETag comes first. A weak one rules out the date as well: RFC 9110 §13.1.5 lets a client send a
        /// date in `If-Range` only when it has no entity tag at all. A Last-Modified date counts only when it is
        /// strong by §8.8.2.2: the same response's `Date` is at least one second later, so the file did not change
        /// again within the second the date names.
        static func of(etag: String?, lastModified: String?, date: String?) -> Validator? {
            if let etag = etag?.trimmingCharacters(in: .whitespaces), !etag.isEmpty {
                guard isStrongETag(etag) else { return nil }
                return Validator(value: etag, isETag: true)
            }
            guard let lastModified = lastModified?.trimmingCharacters(in: .whitespaces),
                let modified = HTTPDate.parse(lastModified), let sent = date.flatMap({ HTTPDate.parse($0) }),
                sent.timeIntervalSince(modified) >= 1
            else { return nil }
            return Validator(value: lastModified, isETag: false)
        }

        /// A quoted entity tag without the weakness prefix (`"xyz"`, RFC 9110 §8.8.3).
        private static func isStrongETag(_ text: String) -> Bool {
            text.count >= 2 && text.hasPrefix("\"") && text.hasSuffix("\"")
        }
    }

    /// What a partial file holds, as its record says: the version's validator and the file's full length. A resume
    /// needs both, to check each answer against them.
    struct Version: Sendable, Hashable {
        var validator: Validator
        var length: Int64
    }
}
