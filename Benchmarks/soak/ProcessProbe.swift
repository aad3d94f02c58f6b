import Foundation

/// The process's resident memory and open file descriptors, read from /proc (Linux).
enum ProcessProbe {
    /// Resident set size in bytes, or `nil` where /proc is missing.
    static func residentBytes() -> Int? {
        guard let text = try? String(contentsOfFile: "/proc/self/statm", encoding: .utf8) else { return nil }
        let fields = text.split(separator: " ")
        guard fields.count > 1, let pages = Int(fields[1]) else { return nil }
        return pages * Int(sysconf(Int32(_SC_PAGESIZE)))
    }

    /// Open file descriptors (the listing's own descriptor excluded), or `nil` where /proc is missing.
    static func openDescriptors() -> Int? {
        guard let names = try? FileManager.default.contentsOfDirectory(atPath: "/proc/self/fd") else { return nil }
        return names.count - 1
    }

    /// What each open descriptor points at (`socket:[…]`, a file path, …), to name a leak.
    static func descriptorTargets() -> [String] {
        let names = (try? FileManager.default.contentsOfDirectory(atPath: "/proc/self/fd")) ?? []
        return names.compactMap { name in
            (try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/fd/" + name)).map {
                "\(name) → \($0)"
            }
        }.sorted()
    }
}
