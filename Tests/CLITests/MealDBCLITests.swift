import Foundation
import TestSupport
import Testing

/// `mealdb` run as a process against the replica.
@Suite("mealdb command line", .enabled(if: TestServer.replica.isUsable))
struct MealDBCLITests {
    let tool: ToolProcess
    let base: [String]

    init() throws {
        tool = try ToolProcess("mealdb")
        base = ["--base-url", try Replica.root()]
    }

    func run(_ arguments: [String], environment: [String: String] = [:]) async throws -> ToolProcess.Outcome {
        try await tool.run(arguments + base, environment: environment)
    }

    // MARK: Commands and JSON shapes

    @Test("search: a JSON array of full meals in the contract's shape")
    func searchJSON() async throws {
        let outcome = try await run(["search", "pasta", "--json"])
        #expect(outcome.status == 0, "\(outcome)")
        #expect(outcome.stderr.isEmpty)
        let meals = try #require(try outcome.json() as? [[String: Any]])
        #expect(!meals.isEmpty)
        let keys = [
            "id", "name", "alternateName", "category", "area", "instructions", "thumbnail", "tags", "youtube", "source",
            "ingredients",
        ]
        for meal in meals {
            #expect(Set(meal.keys) == Set(keys))
            let ingredients = try #require(meal["ingredients"] as? [[String: Any]])
            #expect(
                ingredients.allSatisfy {
                    Set($0.keys) == ["name", "measure"] && ($0["name"] as? String)?.isEmpty == false
                })
            #expect(meal["tags"] is [String])
        }
        let first = try #require(outcome.stdout.range(of: "\"id\""))
        let second = try #require(outcome.stdout.range(of: "\"name\""))
        #expect(first.lowerBound < second.lowerBound, "keys keep the contract's order")
    }

    @Test("search: human output lists the meals; no match is a sentence and exit 0")
    func searchHuman() async throws {
        let found = try await run(["search", "pasta"])
        #expect(found.status == 0)
        #expect(found.stdout.contains("Lemon Garlic Pasta"))
        let none = try await run(["search", "xyzzy"])
        #expect(none.status == 0)
        #expect(none.stdout == "No meals found for \"xyzzy\".\n")
        let noneJSON = try await run(["search", "xyzzy", "--json"])
        #expect(noneJSON.stdout.trimmingCharacters(in: .whitespacesAndNewlines) == "[]")
    }

    @Test("options before and after the command are the same call")
    func optionsAnywhere() async throws {
        let before = try await tool.run(["--json"] + base + ["show", "90001"])
        let after = try await tool.run(["show", "90001", "--json"] + base)
        #expect(before.status == 0)
        #expect(before.stdout == after.stdout)
    }

    @Test("show: a full meal with trimmed values; an unknown id exits 3")
    func show() async throws {
        let outcome = try await run(["show", "90001", "--json"])
        #expect(outcome.status == 0)
        let meal = try #require(try outcome.json() as? [String: Any])
        #expect(meal["id"] as? String == "90001")
        #expect(meal["name"] as? String == "Lemon Garlic Pasta")
        let missing = try await run(["show", "424242"])
        #expect(missing.status == 3)
        #expect(missing.stdout.isEmpty)
        #expect(missing.stderr.contains("no meal with id 424242"))
    }

    @Test("random, letter, categories, areas, ingredients")
    func browsing() async throws {
        let random = try await run(["random", "--json"])
        #expect(random.status == 0)
        #expect((try random.json() as? [String: Any])?["ingredients"] is [[String: Any]])

        let letter = try await run(["letter", "L", "--json"])
        #expect(letter.status == 0)
        let names = (try letter.json() as? [[String: Any]])?.compactMap { $0["name"] as? String } ?? []
        #expect(!names.isEmpty && names.allSatisfy { $0.lowercased().hasPrefix("l") })

        let categories = try await run(["categories", "--json"])
        let category = try #require((try categories.json() as? [[String: Any]])?.first)
        #expect(Set(category.keys) == ["id", "name", "thumbnail", "description"])

        let areas = try await run(["areas", "--json"])
        #expect((try areas.json() as? [String])?.contains("Italian") == true)

        let ingredients = try await run(["ingredients", "--json"])
        let ingredient = try #require((try ingredients.json() as? [[String: Any]])?.first)
        #expect(Set(ingredient.keys) == ["id", "name", "description", "type"])

        let humanAreas = try await run(["areas"])
        #expect(humanAreas.stdout.split(separator: "\n").contains("Italian"))
    }

    @Test("filter: summaries by category, area or ingredient")
    func filter() async throws {
        for arguments in [["--category", "Pasta"], ["--area", "Italian"], ["--ingredient", "Garlic"]] {
            let outcome = try await run(["filter"] + arguments + ["--json"])
            #expect(outcome.status == 0, "\(outcome)")
            let meals = try #require(try outcome.json() as? [[String: Any]])
            #expect(!meals.isEmpty)
            #expect(meals.allSatisfy { Set($0.keys) == ["id", "name", "thumbnail"] })
        }
    }

    // MARK: Premium commands

    @Test("latest and random --selection: JSON arrays of full meals with a supporter's key, from flag or environment")
    func premiumMeals() async throws {
        let key = "premium\(UInt32.random(in: 0...UInt32.max))"
        let mealKeys: Set = [
            "id", "name", "alternateName", "category", "area", "instructions", "thumbnail", "tags", "youtube", "source",
            "ingredients",
        ]
        let latest = try await run(["latest", "--api-key", key, "--json"])
        #expect(latest.status == 0, "\(latest)")
        let newest = try #require(try latest.json() as? [[String: Any]])
        #expect(newest.compactMap { $0["id"] as? String } == (90013...90022).reversed().map(String.init))
        #expect(newest.allSatisfy { Set($0.keys) == mealKeys })
        let human = try await run(["latest"], environment: ["MEALDB_API_KEY": key])
        #expect(human.status == 0, "\(human)")
        #expect(human.stdout.hasPrefix("90022"))

        let selection = try await run(["random", "--selection", "--api-key", key, "--json"])
        #expect(selection.status == 0, "\(selection)")
        let meals = try #require(try selection.json() as? [[String: Any]])
        #expect(meals.count == 10 && meals.allSatisfy { Set($0.keys) == mealKeys })
        let paths = try await Replica.requests(containing: key).map(\.path)
        #expect(paths == ["latest.php", "latest.php", "randomselection.php"].map { "/api/json/v2/\(key)/\($0)" })
    }

    @Test("filter with several --ingredient: summaries of the meals with all of them")
    func filterBySeveralIngredients() async throws {
        let key = "premium\(UInt32.random(in: 0...UInt32.max))"
        let outcome = try await run([
            "filter", "--ingredient", "garlic", "--ingredient", "olive oil", "--api-key", key, "--json",
        ])
        #expect(outcome.status == 0, "\(outcome)")
        let meals = try #require(try outcome.json() as? [[String: Any]])
        #expect(!meals.isEmpty && meals.allSatisfy { Set($0.keys) == ["id", "name", "thumbnail"] })
        let sent = try await Replica.requests(containing: key)
        #expect(sent.map(\.path) == ["/api/json/v2/\(key)/filter.php"])
        #expect(sent.map(\.query) == ["i=garlic%2Colive_oil"])
        let none = try await run(["filter", "--ingredient", "garlic", "--ingredient", "unobtainium", "--api-key", key])
        #expect(none.status == 0)
        #expect(none.stdout == "No meals found for ingredients \"garlic\" and \"unobtainium\".\n")
    }

    @Test(
        "with the test key, each premium command exits 2 before any request, naming both ways to give a key",
        arguments: [
            ["latest"], ["random", "--selection"], ["filter", "--ingredient", "garlic", "--ingredient", "MARKER"],
        ])
    func premiumNeedsAKey(arguments: [String]) async throws {
        let marker = "marker\(UInt32.random(in: 0...UInt32.max))"
        let outcome = try await run(arguments.map { $0 == "MARKER" ? marker : $0 } + ["--verbose"])
        #expect(outcome.status == 2, "\(outcome)")
        #expect(outcome.stdout.isEmpty)
        #expect(outcome.stderr.contains("needs a premium TheMealDB API key"))
        #expect(outcome.stderr.contains("--api-key") && outcome.stderr.contains("MEALDB_API_KEY"))
        #expect(!outcome.stderr.contains(" 200 "), "--verbose logged an exchange")
        #expect(try await Replica.requests(containing: marker).isEmpty)
        #expect(try await Replica.requests(containing: "/api/json/v1/1/latest.php").isEmpty)
        #expect(try await Replica.requests(containing: "/api/json/v1/1/randomselection.php").isEmpty)
    }

    // MARK: What the server received

    @Test("values are percent-encoded per RFC 3986")
    func encoding() async throws {
        let marker = "q\(UInt32.random(in: 0...UInt32.max))"
        let outcome = try await run(["search", "mac & cheese+\(marker)=ü|x"])
        #expect(outcome.status == 0)
        let requests = try await Replica.requests(containing: marker)
        #expect(requests.map(\.query) == ["s=mac%20%26%20cheese%2B\(marker)%3D%C3%BC%7Cx"])
        #expect(requests.first?.path == "/api/json/v1/1/search.php")
    }

    @Test("a key other than 1 uses v2 and is redacted in --verbose")
    func apiKey() async throws {
        let key = "secret\(UInt32.random(in: 0...UInt32.max))"
        let outcome = try await run(["categories", "--api-key", key, "--verbose"])
        #expect(outcome.status == 0, "\(outcome)")
        #expect(!outcome.stderr.contains(key))
        #expect(outcome.stderr.contains("/api/json/v2/***/categories.php 200"))
        #expect(outcome.stderr.contains("cache="))
        let fromEnvironment = try await run(["areas", "--verbose"], environment: ["MEALDB_API_KEY": key])
        #expect(fromEnvironment.stderr.contains("/api/json/v2/***/list.php?a=list 200"))
        let requests = try await Replica.requests(containing: key)
        #expect(requests.count == 2)
    }

    @Test("the base URL comes from the flag, else MEALDB_BASE_URL")
    func baseURLFromEnvironment() async throws {
        let root = try Replica.root()
        let fromEnv = try await tool.run(["areas"], environment: ["MEALDB_BASE_URL": root])
        #expect(fromEnv.status == 0)
        let flagWins = try await tool.run(
            ["areas", "--base-url", root], environment: ["MEALDB_BASE_URL": "http://example.com"])
        #expect(flagWins.status == 0)
        let badEnv = try await tool.run(["areas"], environment: ["MEALDB_BASE_URL": "http://example.com"])
        #expect(badEnv.status == 2)
        #expect(badEnv.stderr.contains("MEALDB_BASE_URL") && badEnv.stderr.contains("https is required"))
    }

    // MARK: Exit codes

    @Test("help and version go to stdout with exit 0")
    func help() async throws {
        let toolHelp = try await tool.run(["--help"])
        #expect(toolHelp.status == 0)
        #expect(toolHelp.stdout.contains("Usage: mealdb <command>"))
        #expect(toolHelp.stderr.isEmpty)
        for command in ["search", "letter", "show", "random", "latest", "categories", "areas", "ingredients", "filter"]
        {
            let help = try await tool.run([command, "-h"])
            #expect(help.status == 0)
            #expect(help.stdout.hasPrefix("Usage: mealdb \(command)"))
        }
        let version = try await tool.run(["--version"])
        #expect(version.status == 0)
        #expect(version.stdout.split(separator: "\n").count == 1)
        #expect(version.stdout.hasPrefix("mealdb "))
    }

    @Test(
        "usage errors exit 2 with one sentence pointing to --help",
        arguments: [
            ["bogus"], ["search"], ["search", "a", "--bogus"], ["letter", "ab"], ["letter", "1"], ["show", "abc"],
            ["filter"], ["filter", "--area", "Italian", "--category", "Pasta"], ["areas", "--timeout", "soon"],
            ["areas", "--base-url", "https://example.com/api"], ["areas", "--offline", "--no-cache"],
        ])
    func usageErrors(arguments: [String]) async throws {
        let outcome = try await tool.run(arguments)
        #expect(outcome.status == 2, "\(outcome)")
        #expect(outcome.stdout.isEmpty)
        #expect(outcome.stderr.hasPrefix("mealdb: error: "))
        #expect(outcome.stderr.contains("--help"))
        #expect(outcome.stderr.split(separator: "\n").count == 1)
    }

    @Test("plain http to a host that is not loopback is refused")
    func insecure() async throws {
        let outcome = try await tool.run(["areas", "--base-url", "http://example.com"])
        #expect(outcome.status == 2)
        #expect(outcome.stderr.contains("https is required"))
    }

    @Test(
        "server failures exit 5, unreadable answers 6",
        arguments: [
            ("__500__", Int32(5), "HTTP 500"), ("__html__", 6, "web page"), ("__text__", 6, "expected format"),
            ("__truncated__", 6, "expected format"),
        ])
    func faults(trigger: String, status: Int32, phrase: String) async throws {
        let outcome = try await run(["search", trigger])
        #expect(outcome.status == status, "\(outcome)")
        #expect(outcome.stdout.isEmpty)
        #expect(outcome.stderr.contains(phrase))
        #expect(outcome.stderr.split(separator: "\n").count == 1)
        #expect(!outcome.stderr.contains("ErrandError"))
    }

    @Test("a refused connection exits 4")
    func refused() async throws {
        let outcome = try await tool.run(["areas", "--base-url", try closedPort()])
        #expect(outcome.status == 4, "\(outcome)")
        #expect(outcome.stderr.contains("connect"))
    }

    @Test("a certificate the system does not trust exits 4", .enabled(if: TestServer.nginxHTTPS.isUsable))
    func untrustedCertificate() async throws {
        var root = try TestServer.nginxHTTPS.url().absoluteString
        while root.hasSuffix("/") { root.removeLast() }
        let outcome = try await tool.run(["areas", "--base-url", root])
        #expect(outcome.status == 4, "\(outcome)")
        #expect(outcome.stderr.contains("secure connection"))
    }

    // Measures real time: the tool runs as a process of its own, on the real clock; the bound is generous.
    @Test("a server that never answers times out with exit 4, decimals allowed (real time)")
    func timeoutRealTime() async throws {
        let silent = try HostileServer.silent()
        let started = ContinuousClock.now
        let outcome = try await tool.run(["areas", "--base-url", silent.root, "--timeout", "0.3"])
        #expect(outcome.status == 4, "\(outcome)")
        #expect(outcome.stderr.contains("too long"))
        #expect(ContinuousClock.now - started < .seconds(20))
    }

    @Test("SIGINT exits 130 with one sentence")
    func interrupt() async throws {
        let silent = try HostileServer.silent()
        let outcome = try await tool.run(["areas", "--base-url", silent.root], interruptAfter: .milliseconds(700))
        #expect(outcome.status == 130, "\(outcome)")
        #expect(outcome.stderr.contains("Interrupted."))
    }

    // MARK: Gallery

    @Test("--html writes index.html and downloaded thumbnails")
    func gallery() async throws {
        let folder = tool.home.appendingPathComponent("gallery")
        let outcome = try await run(["filter", "--area", "Italian", "--html", folder.path, "--json"])
        #expect(outcome.status == 0, "\(outcome)")
        #expect(try outcome.json() is [[String: Any]], "stdout stays one JSON document")
        let html = try String(contentsOf: folder.appendingPathComponent("index.html"), encoding: .utf8)
        let thumbnails = try FileManager.default.contentsOfDirectory(
            atPath: folder.appendingPathComponent("thumbnails").path)
        let count = (try outcome.json() as? [Any])?.count ?? 0
        #expect(thumbnails.count == count)
        #expect(thumbnails.allSatisfy { $0.hasSuffix(".png") })
        for file in thumbnails { #expect(html.contains("src=\"thumbnails/\(file)\"")) }
        #expect(!html.contains("src=\"http"))
    }

    @Test("--html keeps every picture when no size variant is there: the originals stand in, online and offline")
    func galleryWithoutSizeVariants() async throws {
        let folder = tool.home.appendingPathComponent("originals")
        let offlineFolder = tool.home.appendingPathComponent("originals-offline")
        let (online, offline) = try await Replica.withSizeVariantsMissing {
            let online = try await run(["filter", "--area", "British", "--html", folder.path, "--json"])
            let offline = try await run([
                "filter", "--area", "British", "--offline", "--html", offlineFolder.path, "--json",
            ])
            return (online, offline)
        }
        #expect(online.status == 0, "\(online)")
        #expect(!online.stderr.contains("could not be downloaded"), "\(online.stderr)")
        let meals = try #require(try online.json() as? [[String: Any]])
        #expect(!meals.isEmpty)
        for (outcome, place) in [(online, folder), (offline, offlineFolder)] {
            #expect(outcome.status == 0, "\(outcome)")
            let thumbnails = try FileManager.default.contentsOfDirectory(
                atPath: place.appendingPathComponent("thumbnails").path)
            #expect(
                thumbnails.count == meals.count,
                "\(place.lastPathComponent): \(thumbnails.count) of \(meals.count) pictures")
            #expect(outcome.stderr.contains("with \(meals.count) picture"))
        }
        // Each original was asked for after its medium variant failed.
        for meal in meals {
            let thumbnail = try #require(meal["thumbnail"] as? String)
            let path = try #require(URL(string: thumbnail)?.path)
            let asked = try await Replica.requests(containing: path).map(\.path)
            #expect(asked.contains(path + "/medium") && asked.contains(path), "\(path): \(asked)")
        }
    }

    // MARK: Cache

    @Test("--offline answers from the cache after an online run, pictures included; a miss exits 4")
    func offlineAfterCachedRun() async throws {
        // Only this test filters by "Vegetarian", so the replica's log of it is this test's alone.
        let online = try await run([
            "filter", "--category", "Vegetarian", "--json", "--html", tool.home.appendingPathComponent("g1").path,
        ])
        #expect(online.status == 0, "\(online)")
        let sent = try await Replica.requests(containing: "c=Vegetarian").count
        let offlineFolder = tool.home.appendingPathComponent("g2")
        let offline = try await run([
            "filter", "--category", "Vegetarian", "--json", "--offline", "--verbose", "--html", offlineFolder.path,
        ])
        #expect(offline.status == 0, "\(offline)")
        #expect(offline.stdout == online.stdout)
        #expect(offline.stderr.contains("cache=stale") || offline.stderr.contains("cache=hit"))
        #expect(try await Replica.requests(containing: "c=Vegetarian").count == sent, "offline sends nothing")
        let pictures = try FileManager.default.contentsOfDirectory(
            atPath: offlineFolder.appendingPathComponent("thumbnails").path)
        #expect(pictures.count == (try online.json() as? [Any])?.count)

        let miss = try await run(["filter", "--area", "Atlantis", "--offline"])
        #expect(miss.status == 4, "\(miss)")
        #expect(miss.stderr.contains("not cached"))
    }

    @Test("--no-cache neither reads nor writes the cache")
    func noCache() async throws {
        let first = try await run(["categories", "--no-cache", "--verbose"])
        #expect(first.status == 0)
        #expect(first.stderr.contains("cache=none"))
        let offline = try await run(["categories", "--offline"])
        #expect(offline.status == 4, "nothing was written: \(offline)")
        let cached = try await run(["categories"])
        #expect(cached.status == 0)
        let ignoring = try await run(["categories", "--no-cache", "--verbose"])
        #expect(ignoring.stderr.contains("cache=none"), "a stored answer is not read with --no-cache")
    }
}
