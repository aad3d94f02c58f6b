import Foundation
import Testing

@testable import TerminalUI

/// Compares a rendered frame's text with the snapshot kept in Tests/TerminalUITests/Snapshots/NAME-COLSxROWS.txt.
/// `ERRAND_RECORD_SNAPSHOTS=1` writes the snapshots instead (then read them before committing).
enum Snapshot {
    static let sizes = [Size(columns: 80, rows: 24), Size(columns: 120, rows: 40)]

    static let folder = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("Snapshots")

    static func check(
        _ frame: Frame, named name: String, sourceLocation: SourceLocation = #_sourceLocation
    ) throws {
        for size in sizes {
            let text = FrameRenderer.render(frame, size: size).text + "\n"
            let file = folder.appendingPathComponent("\(name)-\(size).txt")
            if ProcessInfo.processInfo.environment["ERRAND_RECORD_SNAPSHOTS"] == "1" {
                try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
                try text.write(to: file, atomically: true, encoding: .utf8)
                continue
            }
            let expected = try String(contentsOf: file, encoding: .utf8)
            #expect(
                text == expected, "\(name) at \(size) differs from \(file.lastPathComponent):\n\(text)",
                sourceLocation: sourceLocation)
        }
    }
}
