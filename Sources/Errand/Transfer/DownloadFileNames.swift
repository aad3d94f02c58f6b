import Foundation

/// The names of a download's hidden files beside its destination: `.name.download` for the partial file,
/// `.name.download-info` for its record, and the record's draft while it is being replaced.
///
/// Each must fit in one directory entry (NAME_MAX, 255 bytes on Linux and on Apple's file systems), which the plain
/// form does not when the destination's own name is long: a 250-byte name would need 265 bytes. Such names are
/// shortened to a prefix and a hash of the whole name, so each destination keeps names of its own.
struct DownloadFileNames: Sendable, Equatable {
    /// The longest name a directory entry takes, in bytes.
    static let nameLimit = 255
    private static let longestSuffix = ".download-info.new"

    let partial: String
    let record: String
    let recordDraft: String

    init(destinationName name: String) {
        let stem = Self.stem(for: name)
        partial = ".\(stem).download"
        record = ".\(stem).download-info"
        recordDraft = ".\(stem)\(Self.longestSuffix)"
    }

    /// The destination's name when every hidden name fits with it, else its longest prefix that leaves room for
    /// `~` and 16 hex digits of the whole name's hash.
    private static func stem(for name: String) -> String {
        let fixed = 1 + longestSuffix.utf8.count
        guard fixed + name.utf8.count > nameLimit else { return name }
        let budget = nameLimit - fixed - 17
        var prefix = String.UnicodeScalarView()
        var bytes = 0
        for scalar in name.unicodeScalars {
            let width = String(scalar).utf8.count
            guard bytes + width <= budget else { break }
            prefix.append(scalar)
            bytes += width
        }
        let hash = String(fnv1a(name.utf8), radix: 16)
        return String(prefix) + "~" + String(repeating: "0", count: 16 - hash.count) + hash
    }

    /// FNV-1a, 64 bits: stable across runs and platforms (unlike `Hasher`), which a name found again later needs.
    private static func fnv1a(_ bytes: String.UTF8View) -> UInt64 {
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        for byte in bytes {
            hash ^= UInt64(byte)
            hash = hash &* 0x0000_0100_0000_01b3
        }
        return hash
    }
}
