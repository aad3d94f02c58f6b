import Foundation

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Symbolic links as the storage tests need them: one another user could have made, and one only the system could.
///
/// Errand follows a link that root owns in a folder above its files (the system's own, as `/var` on Apple
/// platforms) and refuses any other. Tests run as root in CI and as a user elsewhere, so the owner is set
/// explicitly rather than left to whoever runs the test.
public enum SymbolicLinks {
    /// Whether this process can make a link root owns (it runs as root).
    public static var canMakeSystemLinks: Bool { geteuid() == 0 }

    /// Makes a link at `link` to `target` that root does not own: as root, it is handed to `nobody` (65534).
    public static func makeForeign(at link: URL, to target: URL) throws {
        try FileManager.default.createSymbolicLink(at: link, withDestinationURL: target)
        if geteuid() == 0, lchown(link.path, 65_534, 65_534) != 0 {
            throw CocoaError(.fileWriteNoPermission)
        }
    }

    /// Makes a link at `link` to `target` that root owns; only as root (``canMakeSystemLinks``).
    public static func makeSystem(at link: URL, to target: URL) throws {
        try FileManager.default.createSymbolicLink(at: link, withDestinationURL: target)
        guard geteuid() == 0, lchown(link.path, 0, 0) == 0 else { throw CocoaError(.fileWriteNoPermission) }
    }
}
