import Foundation
import TestSupport
import Testing

/// `met` run as a process against the replica.
@Suite("met command line", .enabled(if: TestServer.replica.isUsable))
struct MetCLITests {
    let tool: ToolProcess
    let base: [String]

    init() throws {
        tool = try ToolProcess("met")
        base = ["--base-url", try Replica.root()]
    }

    func run(_ arguments: [String], environment: [String: String] = [:]) async throws -> ToolProcess.Outcome {
        try await tool.run(arguments + base, environment: environment)
    }

    @Test("search: total, objects in search order, skipped IDs")
    func searchJSON() async throws {
        let outcome = try await run(["search", "sunflowers", "--limit", "10", "--json"])
        #expect(outcome.status == 0, "\(outcome)")
        #expect(outcome.stderr.isEmpty, "no progress bar when stderr is not a terminal")
        let document = try #require(try outcome.json() as? [String: Any])
        #expect(Set(document.keys) == ["total", "objects", "skipped"])
        let objects = try #require(document["objects"] as? [[String: Any]])
        let skipped = try #require(document["skipped"] as? [Int])
        #expect(skipped == [7404, 7410])
        #expect(objects.count == 10, "skipped objects are replaced by the next matches")
        let required = [
            "objectID", "title", "isPublicDomain", "isHighlight", "primaryImage", "primaryImageSmall",
            "additionalImages",
            "department", "objectName", "culture", "period", "objectDate", "objectBeginDate", "objectEndDate", "medium",
            "dimensions", "creditLine", "artistDisplayName", "constituents", "tags", "measurements", "objectURL",
            "galleryNumber", "metadataDate",
        ]
        for object in objects {
            #expect(Set(required).isSubset(of: Set(object.keys)), "\(Set(required).subtracting(object.keys))")
            for list in ["constituents", "tags", "measurements", "additionalImages"] { #expect(object[list] is [Any]) }
            #expect(!object.values.contains { ($0 as? String) == "" }, "empty strings become null")
        }
        let ids = try await run(["search", "sunflowers", "--ids-only", "--json"])
        let order = try #require((try ids.json() as? [String: Any])?["objectIDs"] as? [Int])
        let fetched = objects.compactMap { $0["objectID"] as? Int }
        #expect(fetched == Array(order.filter { !skipped.contains($0) }.prefix(10)), "output keeps search order")
    }

    @Test("search in human form reports skipped objects on stderr")
    func searchHuman() async throws {
        let outcome = try await run(["search", "sunflowers", "--limit", "10"])
        #expect(outcome.status == 0)
        #expect(outcome.stdout.contains("Sunflowers in a Blue Jug"))
        #expect(outcome.stderr.contains("skipped 2 objects") && outcome.stderr.contains("7404"))
        let none = try await run(["search", "zzzqqq"])
        #expect(none.status == 0)
        #expect(none.stdout == "No objects found for \"zzzqqq\".\n")
        let noneJSON = try await run(["search", "zzzqqq", "--json"])
        let document = try #require(try noneJSON.json() as? [String: Any])
        #expect(document["total"] as? Int == 0)
        #expect((document["objects"] as? [Any])?.isEmpty == true)
        let idsOnly = try await run(["search", "zzzqqq", "--ids-only", "--json"])
        #expect((try idsOnly.json() as? [String: Any])?["objectIDs"] as? [Int] == [], "null objectIDs become []")
    }

    @Test("every filter is sent, q last, values percent-encoded")
    func filtersOnTheWire() async throws {
        let marker = "m\(UInt32.random(in: 0...UInt32.max))"
        let outcome = try await run([
            "search", "a+b & c=\(marker) é", "--highlight", "--title", "--tags", "--on-view", "--artist-or-culture",
            "--has-images", "--department", "11", "--medium", "Oil|Silk & Wool", "--geo", "France|Côte", "--from",
            "-500",
            "--to", "1900", "--ids-only",
        ])
        #expect(outcome.status == 0, "\(outcome)")
        let requests = try await Replica.requests(containing: marker)
        #expect(requests.map(\.path) == ["/public/collection/v1/search"])
        #expect(
            requests.first?.query == "isHighlight=true&title=true&tags=true&isOnView=true&artistOrCulture=true"
                + "&hasImages=true&departmentId=11&medium=Oil%7CSilk%20%26%20Wool&geoLocation=France%7CC%C3%B4te"
                + "&dateBegin=-500&dateEnd=1900&q=a%2Bb%20%26%20c%3D\(marker)%20%C3%A9")
    }

    @Test("show: the object; unknown and unserved IDs exit 3")
    func show() async throws {
        let outcome = try await run(["show", "7001", "--json"])
        #expect(outcome.status == 0)
        #expect((try outcome.json() as? [String: Any])?["objectID"] as? Int == 7001)
        let human = try await run(["show", "7001"])
        #expect(human.stdout.hasPrefix("Sunflowers in a Blue Jug"))
        for id in ["7404", "7410", "99999999"] {
            let missing = try await run(["show", id])
            #expect(missing.status == 3, "\(missing)")
            #expect(missing.stderr.split(separator: "\n").count == 1)
        }
    }

    @Test("show prints every field the object has: the artist's prefix, suffix and sort name among them")
    func showEveryField() async throws {
        let outcome = try await run(["show", "7003"])
        #expect(outcome.status == 0, "\(outcome)")
        let text = outcome.stdout
        #expect(text.contains("Workshop of Maren Holt and assistants (Dutch, Leiden 1851–1903 Arles)"))
        for line in [
            "Sorted as", "Holt, Maren", "Artist role", "Nationality", "Artist's years", "1851–1903", "Classification",
            "Drawings", "Measured", "Sheet: Height 30.5, Width 22.9", "Accession", "Acquired", "Credit",
            "Repository", "Record updated", "2024-01-09", "Made by", "Small image", "web-large/7003.jpg",
            "Artist ULAN", "Page",
        ] {
            #expect(text.contains(line), "met show 7003 lacks \(line)")
        }
        #expect(!text.contains("River"), "empty fields are left out")
        let json = try await run(["show", "7003", "--json"])
        let object = try #require(try json.json() as? [String: Any])
        #expect(object["artistPrefix"] as? String == "Workshop of")
        #expect(object["artistSuffix"] as? String == "and assistants")
        #expect(object["artistAlphaSort"] as? String == "Holt, Maren")
    }

    @Test("departments and objects")
    func listing() async throws {
        let departments = try await run(["departments", "--json"])
        let first = try #require((try departments.json() as? [[String: Any]])?.first)
        #expect(Set(first.keys) == ["departmentId", "displayName"])

        let marker = "2019-0\(Int.random(in: 1...9))-15"
        let objects = try await run(["objects", "--since", marker, "--department", "1", "--department", "11", "--json"])
        #expect(objects.status == 0, "\(objects)")
        let document = try #require(try objects.json() as? [String: Any])
        #expect(Set(document.keys) == ["total", "objectIDs"])
        let requests = try await Replica.requests(containing: marker)
        #expect(requests.last?.query == "metadataDate=\(marker)&departmentIds=1%7C11")
    }

    @Test(
        "usage errors exit 2",
        arguments: [
            ["search", "x", "--from", "1900"], ["search", "x", "--to", "1900"],
            ["search", "x", "--from", "1900", "--to", "1800"],
            ["search", "x", "--limit", "-1"], ["search", "x", "--rate", "0"], ["search", "x", "--concurrency", "0"],
            ["search", "x", "--medium", "A||B"], ["show", "abc"], ["show", "0"], ["objects", "--since", "2024-02-30"],
            ["objects", "--department", "x"], ["search"], ["frobnicate"],
        ])
    func usageErrors(arguments: [String]) async throws {
        let outcome = try await run(arguments)
        #expect(outcome.status == 2, "\(outcome)")
        #expect(outcome.stderr.hasPrefix("met: error: ") && outcome.stderr.contains("--help"))
    }

    @Test("bot protection and outages exit 5")
    func serverFailures() async throws {
        let blocked = try await run(["search", "__blocked__"])
        #expect(blocked.status == 5, "\(blocked)")
        #expect(blocked.stderr.contains("403"))
        let unavailable = try await run(["search", "__unavailable__"])
        #expect(unavailable.status == 5, "\(unavailable)")
    }

    // Measures real time: the tool runs as a process of its own, on the real clock; a lower bound, so a busy
    // machine only makes it surer.
    @Test("rate and concurrency limits hold while fetching (real time)")
    func limitsRealTime() async throws {
        let started = ContinuousClock.now
        let outcome = try await run([
            "search", "sunflowers", "--limit", "12", "--rate", "20", "--concurrency", "2", "--json",
        ])
        let elapsed = ContinuousClock.now - started
        #expect(outcome.status == 0, "\(outcome)")
        // 12 object requests at 20 per second need at least ~0.5 s after the first burst.
        #expect(elapsed > .milliseconds(400))
    }

    @Test("--html writes the gallery with the objects' pictures")
    func gallery() async throws {
        let folder = tool.home.appendingPathComponent("met-gallery")
        let outcome = try await run(["search", "sunflowers", "--has-images", "--limit", "5", "--html", folder.path])
        #expect(outcome.status == 0, "\(outcome)")
        let html = try String(contentsOf: folder.appendingPathComponent("index.html"), encoding: .utf8)
        let thumbnails = try FileManager.default.contentsOfDirectory(
            atPath: folder.appendingPathComponent("thumbnails").path)
        #expect(!thumbnails.isEmpty)
        for file in thumbnails { #expect(html.contains("thumbnails/\(file)")) }
        #expect(outcome.stderr.contains("Wrote "))
    }

    @Test("--html keeps every picture when the small images are not there: primaryImage stands in")
    func galleryWithoutSmallImages() async throws {
        let folder = tool.home.appendingPathComponent("originals")
        let outcome = try await Replica.withSizeVariantsMissing {
            try await run(["search", "sunflowers", "--has-images", "--limit", "6", "--json", "--html", folder.path])
        }
        #expect(outcome.status == 0, "\(outcome)")
        let objects = try #require((try outcome.json() as? [String: Any])?["objects"] as? [[String: Any]])
        let pictured = objects.filter { $0["primaryImage"] is String }
        #expect(!pictured.isEmpty)
        let thumbnails = try FileManager.default.contentsOfDirectory(
            atPath: folder.appendingPathComponent("thumbnails").path)
        #expect(thumbnails.count == pictured.count)
        #expect(!outcome.stderr.contains("could not be downloaded"), "\(outcome.stderr)")
    }

    @Test("help on the tool and every command")
    func help() async throws {
        for arguments in [
            ["--help"], ["search", "--help"], ["show", "-h"], ["departments", "--help"], ["help", "objects"],
        ] {
            let outcome = try await tool.run(arguments)
            #expect(outcome.status == 0)
            #expect(outcome.stdout.contains("Usage: met"))
        }
        let search = try await tool.run(["search", "--help"])
        for option in ["--highlight", "--artist-or-culture", "--medium A|B", "--from YEAR", "--ids-only", "--rate R"] {
            #expect(search.stdout.contains(option))
        }
    }

    @Test(
        "a progress bar is drawn on stderr when it is a terminal",
        .enabled(if: FileManager.default.isExecutableFile(atPath: "/usr/bin/script")))
    func progressOnTerminal() async throws {
        // script(1) gives the tool a pseudo-terminal; stdout goes to /dev/null so only stderr reaches it.
        let met = ToolProcess.binaryDirectory.appendingPathComponent("met").path
        let command = "'\(met)' search sunflowers --limit 12 --base-url \(try Replica.root()) > /dev/null"
        let terminal = try ToolProcess(
            "script", executable: URL(fileURLWithPath: "/usr/bin/script"), environment: tool.environment)
        let outcome = try await terminal.run(["-qec", command, "/dev/null"])
        #expect(outcome.status == 0, "\(outcome)")
        #expect(outcome.stdout.contains("Fetching objects"))
        #expect(outcome.stdout.contains("12/12"))
        #expect(outcome.stdout.contains("\u{1B}[2K"), "the bar redraws its line")
    }
}
