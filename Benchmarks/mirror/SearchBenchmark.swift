import Foundation
import MetMirror
import MetMuseum

/// Fills a mirror with synthetic objects directly (no network), then times a fixed set of full-text queries
/// through ``MirrorStore/search(_:)`` and `met search --mirror` as a user runs it.
struct SearchBenchmark {
    let rows: Int

    static let subjects = [
        "mirror", "bowl", "vase", "figure", "panel", "helmet", "box", "plate", "jar", "textile", "print", "drawing",
        "portrait", "landscape", "amulet", "ewer", "bottle", "cup", "screen", "fan",
    ]
    static let adjectives = [
        "Bronze", "Gilded", "Carved", "Painted", "Lacquered", "Silver", "Glazed", "Inlaid", "Embroidered", "Small",
    ]
    static let motifs = [
        "phoenixes", "cranes", "lotus", "dragons", "horses", "flowers", "waves", "clouds", "lions", "cats", "birds",
    ]
    static let media = [
        "Bronze", "Silver", "Earthenware", "Porcelain", "Oil on canvas", "Ink on paper", "Silk", "Wood",
    ]
    static let cultures = ["China", "Japan", "Iran", "Egypt", "Greek", "Roman", "French", "British", "Korea", "India"]
    static let artists = ["Maren Holt", "Kenji Arata", "Lucien Ferrand", "Ida Brandt", "Nora Vasquez", "Li Wen"]

    /// The fixed query set: common and rare words, phrases of two and three words, field and filter searches.
    static let queries: [SearchQuery] = [
        SearchQuery("mirror"), SearchQuery("bronze mirror"), SearchQuery("bronze mirror phoenixes"),
        SearchQuery("cats"), SearchQuery("gilded ewer"), SearchQuery("porcelain vase dragons"),
        SearchQuery("Maren Holt", fields: .artistOrCulture), SearchQuery("lotus", fields: .title),
        SearchQuery("cranes", hasImages: true), SearchQuery("helmet", isHighlight: true),
        SearchQuery("plate", media: ["Earthenware"]), SearchQuery("screen", geoLocations: ["Japan"]),
        SearchQuery("mirror", dateBegin: -500, dateEnd: 1500), SearchQuery("silk textile"),
        SearchQuery("zzzqqq"), SearchQuery("a"),
    ]

    func run() async throws {
        let folder = try Measure.folder("fts-bench")
        let store = try MirrorStore(directory: folder)
        let fillStart = ContinuousClock.now
        var generator = SeededGenerator(seed: 7)
        let encoder = JSONEncoder()
        for start in stride(from: 0, to: rows, by: 5_000) {
            let objects = (start..<min(start + 5_000, rows)).map { Self.object(1_000_000 + $0, &generator) }
            try store.importObjects(objects, json: objects.map { (try? encoder.encode($0)) ?? Data() })
        }
        let fillSeconds = Measure.seconds(fillStart.duration(to: .now))
        print(
            "Filled \(rows) synthetic objects in " + String(format: "%.0f s", fillSeconds) + "; database "
                + String(
                    format: "%.0f MB, %.0f bytes per object", Double(store.fileSize()) / 1e6,
                    Double(store.fileSize()) / Double(rows)))

        var samples: [Double] = []
        var matches: [Int] = []
        for round in 0..<20 {
            for query in Self.queries {
                let start = ContinuousClock.now
                let found = try store.search(query)
                samples.append(Measure.seconds(start.duration(to: .now)) * 1000)
                if round == 0 { matches.append(found.total) }
            }
        }
        samples.sort()
        print(
            "FTS over \(rows) rows, \(Self.queries.count) queries × 20 rounds (every match ranked): "
                + String(
                    format: "p50 %.2f ms, p99 %.2f ms, max %.2f ms", Measure.percentile(samples, 0.5),
                    Measure.percentile(samples, 0.99), samples.last ?? 0))
        print("matches per query: \(matches)")
        try await endToEnd(folder)
    }

    /// `met search --mirror DIR TEXT --limit 20` as a process, from start to exit, median and worst of ten.
    private func endToEnd(_ folder: URL) async throws {
        let met = URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent().appendingPathComponent(
            "met")
        guard FileManager.default.isExecutableFile(atPath: met.path) else {
            print("met search --mirror: not measured, \(met.path) is not built (swift build -c release --product met)")
            return
        }
        for text in ["bronze mirror", "cats"] {
            var times: [Double] = []
            for _ in 0..<10 {
                let process = Process()
                process.executableURL = met
                process.arguments = ["search", "--mirror", folder.path, text, "--limit", "20", "--json"]
                process.standardOutput = FileHandle.nullDevice
                process.standardError = FileHandle.nullDevice
                let exited = AsyncStream<Void>.makeStream()
                process.terminationHandler = { _ in exited.continuation.finish() }
                let start = ContinuousClock.now
                try process.run()
                for await _ in exited.stream {}
                times.append(Measure.seconds(start.duration(to: .now)) * 1000)
            }
            times.sort()
            print(
                "met search --mirror \"\(text)\" --limit 20 --json, whole process: "
                    + String(format: "median %.0f ms, worst %.0f ms", Measure.percentile(times, 0.5), times.last ?? 0))
        }
    }

    static func object(_ id: Int, _ generator: inout SeededGenerator) -> MetObject {
        func pick(_ list: [String]) -> String { list[Int(generator.next() % UInt64(list.count))] }
        var object = MetObject(objectID: id, title: "\(pick(adjectives)) \(pick(subjects)) with \(pick(motifs))")
        object.objectName = pick(subjects).capitalized
        object.medium = pick(media)
        object.culture = pick(cultures)
        object.artistDisplayName = generator.next() % 3 == 0 ? nil : pick(artists)
        object.objectBeginDate = Int(generator.next() % 4000) - 2000
        object.objectEndDate = object.objectBeginDate + Int(generator.next() % 80)
        object.isPublicDomain = generator.next() % 10 < 7
        object.isHighlight = generator.next() % 100 < 3
        object.tags = [ObjectTag(term: pick(motifs).capitalized)]
        object.department = "Asian Art"
        object.country = pick(cultures)
        if object.isPublicDomain {
            object.primaryImage = URL(string: "https://images.metmuseum.org/CRDImages/as/original/\(id).jpg")
            object.primaryImageSmall = URL(string: "https://images.metmuseum.org/CRDImages/as/web-large/\(id).jpg")
        }
        object.metadataDate = Date(timeIntervalSince1970: 1_700_000_000 + Double(id % 10_000_000))
        return object
    }
}

/// A small deterministic generator (SplitMix64), so every run fills the same rows.
struct SeededGenerator: RandomNumberGenerator {
    var state: UInt64

    init(seed: UInt64) { state = seed }

    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}
