import Foundation

extension HTTPCache {
    /// Where a tool's cache file goes: `$XDG_CACHE_HOME/errand/<name>.sqlite`, or `~/.cache/errand/<name>.sqlite`
    /// when `XDG_CACHE_HOME` is unset or not absolute (as the XDG spec says); `~/Library/Caches/errand/` on macOS.
    ///
    /// `name` is a tool's name, not a URL: characters other than letters, digits, `-`, `_` and `.` become `_`, so
    /// the result always stays inside the cache folder.
    public static func defaultFileURL(
        named name: String, environment: [String: String] = ProcessInfo.processInfo.environment
    ) -> URL {
        let safe = String(name.map { $0.isASCII && ($0.isLetter || $0.isNumber || "-_.".contains($0)) ? $0 : "_" })
        let fileName = (safe.isEmpty || safe.allSatisfy { $0 == "." } ? "cache" : safe) + ".sqlite"
        return cacheRoot(environment: environment).appendingPathComponent("errand", isDirectory: true)
            .appendingPathComponent(fileName, isDirectory: false)
    }

    private static func cacheRoot(environment: [String: String]) -> URL {
        if let xdg = environment["XDG_CACHE_HOME"], xdg.hasPrefix("/") {
            return URL(fileURLWithPath: xdg, isDirectory: true)
        }
        let home = environment["HOME"].flatMap { $0.hasPrefix("/") ? $0 : nil } ?? NSHomeDirectory()
        #if canImport(Darwin)
        return URL(fileURLWithPath: home, isDirectory: true).appendingPathComponent("Library/Caches", isDirectory: true)
        #else
        return URL(fileURLWithPath: home, isDirectory: true).appendingPathComponent(".cache", isDirectory: true)
        #endif
    }
}
