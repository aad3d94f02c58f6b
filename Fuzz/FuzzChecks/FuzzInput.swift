/// A fuzzer's bytes cut into the fields a check needs.
///
/// Fields are separated by NUL bytes, so a seed file is readable text with `\0` between its parts, and the fuzzer's
/// mutations move freely between "one field changes" and "the fields shift".
public struct FuzzInput: Sendable {
    /// The raw bytes.
    public let bytes: [UInt8]

    /// Wraps the bytes.
    public init(_ bytes: [UInt8]) { self.bytes = bytes }

    /// The NUL-separated fields as text (invalid UTF-8 repaired, as every String is).
    public var fields: [String] {
        bytes.split(separator: 0, omittingEmptySubsequences: false).map { String(decoding: $0, as: UTF8.self) }
    }

    /// The whole input as text.
    public var text: String { String(decoding: bytes, as: UTF8.self) }
}

/// What a check found wrong: each entry one broken promise, described for the crash report.
public typealias Violations = [String]
