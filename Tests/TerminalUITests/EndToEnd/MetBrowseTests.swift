import Foundation
import Testing

/// `met browse` run under tmux against a replica: the museum app as a person uses it.
@Suite("met browse under tmux", .enabled(if: EndToEnd.isPossible), .serialized)
struct MetBrowseTests {
    @Test(
        "search, objects filling in, an object and back, a new search cancelling the running one, offline and retry, a department filter, q"
    )
    func session() async throws {
        try await BrowseSession.with("met", arguments: ["--limit", "6", "--rate", "3"]) { app in
            let tmux = app.tmux
            try await tmux.wait(for: "All departments") { $0.contains("European Paintings") }

            try await tmux.press("/")
            try await tmux.type("sunflowers")
            try await tmux.press("Enter")
            let found = try await tmux.wait(for: "6 of 6") { $0.contains("Sunflowers in a Blue Jug") }
            #expect(found.contains("Objects matching “sunflowers”") && found.contains("skipped"))

            // An object, with its picture decoded from the replica's JPEG, and back.
            try await tmux.press("Enter")
            try await tmux.wait(for: "object 7001") { $0.contains("Oil on canvas") && $0.contains("▀") }
            try await tmux.press("Escape")
            try await tmux.wait(for: "Objects matching “sunflowers”")

            // A new search while one still fetches: the old query's objects never show under the new one.
            try await tmux.press(
                "/", "BSpace", "BSpace", "BSpace", "BSpace", "BSpace", "BSpace", "BSpace", "BSpace",
                "BSpace", "BSpace")
            try await tmux.type("cat")
            try await tmux.press("Enter")
            try await tmux.wait(for: "Fetching objects…") { $0.contains("Objects matching “cat”") }
            try await tmux.press("/", "BSpace", "BSpace", "BSpace")
            try await tmux.type("quilt")
            try await tmux.press("Enter")
            let deadline = ContinuousClock.now + .seconds(15)
            var finished = false
            while ContinuousClock.now < deadline, !finished {
                let screen = try await tmux.screen()
                if screen.contains("Objects matching “quilt”") {
                    #expect(!screen.contains("Cat"), "a cat under the quilt search:\n\(screen)")
                    finished = screen.contains("Crazy Quilt") && screen.contains(" of ") && !screen.contains("Fetching")
                }
                try await Task.sleep(for: .milliseconds(30))
            }
            #expect(finished, "the quilt search finished")

            // The service goes away: the failed state; it comes back, and r retries.
            try await app.replica.stop()
            try await tmux.press("/", "BSpace", "BSpace", "BSpace", "BSpace", "BSpace")
            try await tmux.type("vase")
            try await tmux.press("Enter")
            let failed = try await tmux.wait(for: "Press r to try again.", timeout: .seconds(20))
            #expect(failed.contains("You seem to be offline."))
            try await app.replica.start()
            try await tmux.press("r")
            try await tmux.wait(for: "Vase with Sunflower Decoration") { !$0.contains("Press r") }

            // A department as the filter searches again within it.
            try await tmux.press("Escape")
            try await tmux.wait(for: "All departments")
            // One row at a time, each move seen on screen before the next, until the department is selected.
            func selectedRow(_ screen: String) -> String {
                screen.split(separator: "\n").first { $0.hasPrefix("▶") }.map(String.init) ?? ""
            }
            var current = selectedRow(try await tmux.screen())
            var selected = current.contains("European Paintings")
            for _ in 0..<25 where !selected {
                try await tmux.press("Down")
                let before = current
                let screen = try await tmux.wait(for: "▶") { selectedRow($0) != before }
                current = selectedRow(screen)
                selected = current.contains("European Paintings")
            }
            #expect(selected)
            try await tmux.press("Enter")
            try await tmux.wait(for: "in European Paintings") { $0.contains("No objects found for “vase”.") }

            #expect(try await app.quitAndCheckRestored() == "0")
        }
    }

    @Test("an object without a public-domain picture shows its page's address instead")
    func noPicture() async throws {
        try await BrowseSession.with("met", arguments: ["--limit", "8"]) { app in
            let tmux = app.tmux
            try await tmux.wait(for: "All departments")
            try await tmux.press("/")
            try await tmux.type("woman with sunflowers")
            try await tmux.press("Enter")
            try await tmux.wait(for: "Woman with Sunflowers") { !$0.contains("Fetching") }
            var opened = ""
            for _ in 0..<8 where !opened.contains("Woman with Sunflowers") {
                try await tmux.press("Enter")
                opened = try await tmux.wait(for: "Object") { $0.contains("object 7") }
                if !opened.contains("Woman with Sunflowers") {
                    try await tmux.press("Escape", "Down")
                    opened = ""
                }
            }
            #expect(
                opened.contains("No public-domain") && opened.contains("See it on its page: https://www.metmuseum.org/")
            )
            #expect(try await app.quitAndCheckRestored() == "0")
        }
    }
}

extension MetBrowseTests {
    @Test("--mirror: the app searches and opens objects from a mirror, with the service gone")
    func fromMirror() async throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("browse-mirror-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: folder) }
        let source = try ReplicaProcess()
        try await source.start()
        let made = try await Spawn.run(
            try BuiltTools.path("met"), ["mirror", folder.path, "--base-url", source.url, "--rate", "2000"],
            environment: ["HOME": folder.path, "LANG": "C.UTF-8"])
        try await source.stop()
        #expect(made.status == 0, "met mirror: \(made.output)")

        try await BrowseSession.with("met", arguments: ["--mirror", folder.path, "--limit", "6"]) { app in
            try await app.replica.stop()
            let tmux = app.tmux
            try await tmux.wait(for: "All departments") { $0.contains("European Paintings") }
            try await tmux.press("/")
            try await tmux.type("sunflowers")
            try await tmux.press("Enter")
            // The mirror ranks by relevance (FTS5), so the order is its own; the first row opens.
            let found = try await tmux.wait(for: "6 of 6") { $0.contains("Objects matching “sunflowers”") }
            #expect(!found.contains("offline"))
            let first = try #require(found.split(separator: "\n").first { $0.hasPrefix("▶") })
            let title = first.split(separator: "  ", omittingEmptySubsequences: true).last.map {
                $0.trimmingCharacters(in: .whitespaces)
            }
            try await tmux.press("Enter")
            try await tmux.wait(for: title ?? "Sunflower") { $0.contains("object 7") && $0.contains("Artist") }
            #expect(try await app.quitAndCheckRestored() == "0")
        }
    }
}

/// Both tools refuse `browse` when stdout is not a terminal.
@Suite("browse without a terminal", .enabled(if: EndToEnd.isPossible))
struct BrowseRefusalTests {
    @Test("exit 2 and one sentence, nothing on stdout", arguments: ["mealdb", "met"])
    func refused(tool: String) async throws {
        let binary = try BuiltTools.path(tool)
        let result = try await Spawn.run(
            "/bin/sh", ["-c", "'\(binary)' browse --base-url http://127.0.0.1:9 2>&1"], environment: ["TERM": "xterm"])
        #expect(result.status == 2)
        #expect(result.output.contains("\(tool) browse is a full-screen app and needs a terminal"))
        #expect(!result.output.contains("\u{1B}"), "no escape sequence reached the pipe")
    }
}
