import Foundation

#if canImport(Glibc)
import Glibc
#endif
import Testing

/// `mealdb browse` run under tmux against a replica: the recipe app as a person uses it.
@Suite("mealdb browse under tmux", .enabled(if: EndToEnd.isPossible), .serialized)
struct MealDBBrowseTests {
    @Test("categories, search as you type, a meal and back, a newer query winning, offline and retry, resize, q")
    func session() async throws {
        try await BrowseSession.with("mealdb") { app in
            let tmux = app.tmux
            let home = try await tmux.wait(for: "Beef")
            #expect(home.contains("Categories and areas") && home.contains("American"))

            // A category's meals.
            try await tmux.press("Enter")
            try await tmux.wait(for: "Meals of the category Beef") { $0.contains("Beef and Barley Stew") }
            try await tmux.press("Escape")
            try await tmux.wait(for: "Categories and areas")

            // Search as you type; the thumbnails arrive in 24-bit colour.
            try await tmux.press("/")
            try await tmux.type("pasta")
            let results = try await tmux.wait(for: "Meals matching “pasta”") { $0.contains("Lemon Garlic Pasta") }
            #expect(results.contains("Pasta e Ceci"))
            let coloured = try await waitForColours(tmux)
            #expect(coloured, "thumbnails drawn as 24-bit half blocks")

            // A meal, and back to the list.
            try await tmux.press("Enter", "Enter")
            let meal = try await tmux.wait(for: "Ingredients") { $0.contains("Category") }
            #expect(meal.contains("Lemon Garlic Pasta") && meal.contains("Spaghetti"))
            try await tmux.press("Escape")
            try await tmux.wait(for: "Meals matching “pasta”")

            // Typing on before a search has answered: only the newest query's results ever show under it.
            try await tmux.press("/")
            try await tmux.press("BSpace", "BSpace", "BSpace", "BSpace", "BSpace")
            try await tmux.type("curr")
            try await tmux.press("BSpace", "BSpace", "BSpace", "BSpace")
            try await tmux.type("soup")
            let soup = try await tmux.wait(for: "Meals matching “soup”") { $0.contains("Roasted Tomato Soup") }
            #expect(!soup.contains("Curry") && !soup.contains("Pasta"), "\(soup)")

            // The service goes away: the failed state with its sentence and the way to retry; back, and r retries.
            try await app.replica.stop()
            try await tmux.press("BSpace", "BSpace", "BSpace", "BSpace")
            try await tmux.type("tart")
            let failed = try await tmux.wait(for: "Press r to try again.", timeout: .seconds(20))
            #expect(failed.contains("You seem to be offline."))
            try await app.replica.start()
            try await tmux.press("Enter", "r")
            try await tmux.wait(for: "Maple Butter Tarts") { $0.contains("Meals matching “tart”") }

            // A bigger window: laid out again at its new size.
            try await tmux.resize(columns: 120, rows: 40)
            let wide = try await tmux.wait(for: "Maple Butter Tarts") { screen in
                screen.split(separator: "\n").first.map { $0.count > 100 && $0.hasSuffix("TheMealDB") } ?? false
            }
            let lines = wide.split(separator: "\n", omittingEmptySubsequences: false)
            #expect(lines.count >= 40 && lines[39].contains("q quit"), "the key line moved to the new last row")

            #expect(try await app.quitAndCheckRestored() == "0")
        }
    }

    @Test("Ctrl-C quits and restores the terminal")
    func interrupt() async throws {
        try await BrowseSession.with("mealdb") { app in
            try await app.tmux.wait(for: "Beef")
            #expect(try await app.quitAndCheckRestored(with: "C-c") == "0")
        }
    }

    @Test(
        "a signal restores the terminal: TERM, HUP and INT exit with their status, a crash (SEGV) still dies of it",
        arguments: [("TERM", "143"), ("HUP", "129"), ("INT", "130"), ("SEGV", "139")])
    func signalled(signal: String, status: String) async throws {
        try await BrowseSession.with("mealdb") { app in
            try await app.tmux.wait(for: "Beef")
            let shell = try await app.tmux.value("pane_pid")
            try await signalChild(of: shell, signal)
            #expect(try await app.checkRestored() == status)
        }
    }

    @Test("without colour (NO_COLOR) there are no thumbnails and no colour; a meal's picture is a labelled placeholder")
    func noColour() async throws {
        try await BrowseSession.with("mealdb", environment: ["NO_COLOR": "1"]) { app in
            let tmux = app.tmux
            try await tmux.wait(for: "Beef")
            try await tmux.press("/")
            try await tmux.type("pasta")
            let list = try await tmux.wait(for: "Lemon Garlic Pasta")
            #expect(!list.contains("▀"))
            try await tmux.press("Enter", "Enter")
            let meal = try await tmux.wait(for: "Ingredients") { $0.contains("no picture") }
            #expect(!meal.contains("▀"))
            #expect(!(try await tmux.screen(colors: true)).contains("38;2;"))
            #expect(try await app.quitAndCheckRestored() == "0")
        }
    }

    /// Polls the coloured capture until a 24-bit foreground and background appear.
    private func waitForColours(_ tmux: Tmux) async throws -> Bool {
        let deadline = ContinuousClock.now + .seconds(10)
        while ContinuousClock.now < deadline {
            let screen = try await tmux.screen(colors: true)
            if screen.contains("▀"), screen.contains("38;2;"), screen.contains("48;2;") { return true }
            try await Task.sleep(for: .milliseconds(50))
        }
        return false
    }
}

/// Sends a signal to the one child of a process (the app the shell in the pane started), found in /proc: a fresh
/// Debian has no pgrep.
func signalChild(of parent: String, _ signal: String) async throws {
    let numbers = ["TERM": SIGTERM, "HUP": SIGHUP, "INT": SIGINT, "SEGV": SIGSEGV]
    let number = try #require(numbers[signal], "no signal named \(signal)")
    let children = ((try? FileManager.default.contentsOfDirectory(atPath: "/proc")) ?? []).compactMap { Int32($0) }
        .filter { pid in
            guard let status = try? String(contentsOfFile: "/proc/\(pid)/status", encoding: .utf8) else { return false }
            let line = status.split(separator: "\n").first { $0.hasPrefix("PPid:") }
            return line.map { $0.dropFirst(5).trimmingCharacters(in: .whitespaces) } == parent
        }
    #expect(children.count == 1, "one child of \(parent): \(children)")
    for child in children { #expect(kill(child, number) == 0, "kill -\(signal) \(child)") }
}
