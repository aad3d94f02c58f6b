import Foundation

/// Where tests write their HAR files: the folder `scripts/test` names in `ERRAND_HAR_DIR`, whose every file it checks
/// with an independent HAR reader and the HAR 1.2 schema after the suite; a temporary folder without it.
public enum HARFiles {
    /// A new file name for a recording, unique in this run.
    public static func make(_ name: String) throws -> URL {
        let folder =
            ProcessInfo.processInfo.environment["ERRAND_HAR_DIR"].map { URL(fileURLWithPath: $0) }
            ?? FileManager.default.temporaryDirectory.appendingPathComponent("errand-har")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        return folder.appendingPathComponent("\(name)-\(UUID().uuidString.prefix(8)).har")
    }

    /// The project's `Tests/HAR` folder: the HAR 1.2 schema, its checker and the hand-written browser recording.
    public static let resources = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .deletingLastPathComponent().appendingPathComponent("HAR")

    /// The JSON object of a HAR file, for assertions on fields Errand's own types do not model.
    public static func json(_ file: URL) throws -> [String: Any] {
        try JSONSerialization.jsonObject(with: Data(contentsOf: file)) as? [String: Any] ?? [:]
    }
}
