import Foundation

/// The real service responses in `../shared/fixtures/` beside the project (never copied into it).
public enum Fixtures {
    /// The fixtures folder for a service (`themealdb`, `met`), if present.
    public static func directory(_ service: String) -> URL? {
        let candidates = [
            ProcessInfo.processInfo.environment["ERRAND_FIXTURES"].map { URL(fileURLWithPath: $0) },
            packageRoot.deletingLastPathComponent().appendingPathComponent("shared/fixtures"),
        ].compactMap { $0 }
        for root in candidates {
            let folder = root.appendingPathComponent(service)
            if FileManager.default.fileExists(atPath: folder.path) { return folder }
        }
        return nil
    }

    /// Whether the fixtures of a service are present; prints why not when absent.
    public static func available(_ service: String) -> Bool {
        if directory(service) != nil { return true }
        print("skipping: ../shared/fixtures/\(service) is not present beside the project")
        return false
    }

    /// The bytes of one fixture file.
    public static func data(_ service: String, _ name: String) throws -> Data {
        guard let folder = directory(service) else { throw CocoaError(.fileNoSuchFile) }
        return try Data(contentsOf: folder.appendingPathComponent(name))
    }

    /// Every `.json` file name of a service, sorted.
    public static func names(_ service: String) -> [String] {
        guard let folder = directory(service),
            let names = try? FileManager.default.contentsOfDirectory(atPath: folder.path)
        else { return [] }
        return names.filter { $0.hasSuffix(".json") }.sorted()
    }

    /// The package's root folder (where Package.swift is).
    public static let packageRoot: URL = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
}
