import Foundation

/// The hosts reached directly, never through a proxy: a `NO_PROXY` list, matched as curl matches it.
///
/// The list is separated by commas (and, as curl 7.86 and later allow, spaces). `*` alone bypasses every host.
/// A name entry matches that host and every host under it (`example.com` and `.example.com` both match
/// `example.com` and `api.example.com`, never `badexample.com`), compared case-insensitively and ignoring a
/// trailing dot. An IP entry matches that address only, and an entry with a prefix length (`10.0.0.0/8`,
/// `fd00::/8`) every address in the range; neither matches a host name, even one that resolves to it. Ports in
/// entries are not supported (curl ignores them too, so an entry with one matches nothing).
public struct ProxyBypass: Sendable, Hashable, CustomStringConvertible {
    /// The entries, as written (without separators).
    public let entries: [String]

    /// Reads a `NO_PROXY`-style list.
    public init(_ list: String) {
        entries = list.split(whereSeparator: { $0 == "," || $0 == " " || $0 == "\t" }).map(String.init)
    }

    /// A list of entries.
    public init(entries: [String]) {
        self.init(entries.joined(separator: ","))
    }

    /// The entries joined by commas, as `NO_PROXY` takes them.
    public var description: String { entries.joined(separator: ",") }

    /// Whether a host (a name, or an IP address without brackets) is reached directly.
    public func matches(host: String) -> Bool {
        if entries == ["*"] { return true }
        let name = Self.normalized(host)
        guard !name.isEmpty else { return false }
        let address = IPAddress(name)
        return entries.contains { entry in
            if let address { return address.isInside(entry) }
            return Self.matches(name: name, entry: entry)
        }
    }

    private static func matches(name: String, entry: String) -> Bool {
        var pattern = normalized(entry)
        if pattern.hasPrefix(".") { pattern.removeFirst() }
        guard !pattern.isEmpty else { return false }
        return name == pattern || name.hasSuffix("." + pattern)
    }

    private static func normalized(_ host: String) -> String {
        var host = host.lowercased()
        if host.hasPrefix("["), host.hasSuffix("]") { host = String(host.dropFirst().dropLast()) }
        while host.hasSuffix(".") { host.removeLast() }
        return host
    }
}

/// An IPv4 or IPv6 address as bytes, for matching `NO_PROXY` entries with prefix lengths.
struct IPAddress: Hashable {
    let bytes: [UInt8]

    init?(_ text: String) {
        if let bytes = Self.bytes(of: text, family: AF_INET, size: 4) {
            self.bytes = bytes
        } else if let bytes = Self.bytes(of: text, family: AF_INET6, size: 16) {
            self.bytes = bytes
        } else {
            return nil
        }
    }

    /// Whether this address is the entry's address, or inside its `address/bits` range.
    func isInside(_ entry: String) -> Bool {
        let parts = entry.split(separator: "/", maxSplits: 1, omittingEmptySubsequences: false)
        var text = parts[0].lowercased()
        if text.hasPrefix("["), text.hasSuffix("]") { text = String(text.dropFirst().dropLast()) }
        guard let network = IPAddress(text), network.bytes.count == bytes.count else { return false }
        let width = bytes.count * 8
        var bits = width
        if parts.count == 2 {
            guard let prefix = Int(parts[1]), (0...width).contains(prefix) else { return false }
            // curl reads `/0` as "the whole address", not "every address": agree with it.
            bits = prefix == 0 ? width : prefix
        }
        return Self.samePrefix(bytes, network.bytes, bits: bits)
    }

    private static func samePrefix(_ a: [UInt8], _ b: [UInt8], bits: Int) -> Bool {
        for index in 0..<a.count {
            let covered = min(8, max(0, bits - index * 8))
            guard covered > 0 else { return true }
            let mask = UInt8(truncatingIfNeeded: 0xFF << (8 - covered))
            if a[index] & mask != b[index] & mask { return false }
        }
        return true
    }

    private static func bytes(of text: String, family: Int32, size: Int) -> [UInt8]? {
        var buffer = [UInt8](repeating: 0, count: size)
        let parsed = buffer.withUnsafeMutableBytes { inet_pton(family, text, $0.baseAddress) }
        return parsed == 1 ? buffer : nil
    }
}
