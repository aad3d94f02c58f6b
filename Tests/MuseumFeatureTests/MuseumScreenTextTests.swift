import Errand
import Foundation
import MetMuseum
import TestSupport
import Testing

@testable import MuseumFeature

/// What the museum screens show in each state: the statuses, progress, notices and object lines that the terminal
/// app and the SwiftUI app both read from the models.
@MainActor
@Suite("Museum screens: statuses, progress and lines from the models")
struct MuseumScreenTextTests {
    func object(_ id: Int, title: String? = "Sunflowers", picture: String? = nil, page: String? = nil) throws
        -> MetObject
    {
        var fields: [String: Any] = ["objectID": id, "isPublicDomain": picture != nil]
        fields["title"] = title
        fields["primaryImageSmall"] = picture ?? ""
        fields["objectURL"] = page ?? ""
        fields["artistDisplayName"] = "Maren Holt"
        fields["objectDate"] = "1887"
        fields["department"] = "European Paintings"
        let data = try JSONSerialization.data(withJSONObject: fields)
        return try JSONDecoder().decode(MetObject.self, from: data)
    }

    @Test("each phase of a search has its status; objects that arrived speak for themselves")
    func searchStatus() throws {
        let one = [try object(1)]
        #expect(
            MuseumSearchStore.status(of: .idle, objectCount: 0, query: "")
                == .hint("Search the collection for a word, as sunflowers."))
        #expect(MuseumSearchStore.status(of: .idle, objectCount: 1, query: "cat") == nil)
        #expect(
            MuseumSearchStore.status(of: .searching, objectCount: 0, query: "rhino")
                == .loading("Searching the collection for “rhino”…"))
        #expect(
            MuseumSearchStore.status(of: .fetching, objectCount: 3, query: "rhino") == .loading("Fetching objects…"))
        #expect(
            MuseumSearchStore.status(of: .finished, objectCount: 0, query: "vase")
                == .empty("No objects found for “vase”."))
        #expect(MuseumSearchStore.status(of: .finished, objectCount: 2, query: "vase") == nil)
        #expect(MuseumSearchStore.status(of: .failed("Offline."), objectCount: 1, query: "x") == .failed("Offline."))
        #expect(MuseumSearchStore(objects: one).status == nil)
        #expect(MuseumSearchStore(objects: [], state: .finished).status?.text.hasPrefix("No objects found") == true)
    }

    @Test("progress reads done of total, the skipped and the matches, singular and plural")
    func progress() {
        let partWay = FanOutProgress(completed: 12, failed: 2, total: 20)
        #expect(MuseumSearchStore.progressText(of: .searching, progress: partWay, skipped: 0, matches: 0) == nil)
        #expect(
            MuseumSearchStore.progressText(of: .fetching, progress: partWay, skipped: 2, matches: 345)
                == "12 of 20 · 2 skipped · 345 matches")
        #expect(
            MuseumSearchStore.progressText(of: .finished, progress: partWay, skipped: 0, matches: 1)
                == "12 of 20 · 1 match")
        #expect(MuseumText.text("screen.progress.done", ["done": "1", "total": "2"], language: "de") == "1 von 2")
    }

    @Test("the skipped-object notice appears once a search finished with objects skipped")
    func skippedNotice() throws {
        #expect(MuseumSearchStore(objects: [try object(1)]).skippedNotice == nil)
        #expect(MuseumText.text("screen.skipped.one") == "1 object could not be shown: the museum does not serve it.")
        #expect(
            MuseumText.text("screen.skipped.other", ["count": "3"])
                == "3 objects could not be shown: the museum does not serve them.")
    }

    @Test("an object: its title or Untitled, its summary line, its picture or its page instead")
    func objectLines() throws {
        let painting = try object(1, picture: "https://images.example/s.jpg", page: "https://museum.example/1")
        #expect(painting.displayTitle == "Sunflowers")
        #expect(painting.summaryLine == "Maren Holt · 1887 · European Paintings")
        #expect(painting.detailPicture == URL(string: "https://images.example/s.jpg"))
        #expect(painting.pageNote == nil)
        #expect(painting.externalPage == nil)
        let withheld = try object(2, title: nil, page: "https://museum.example/2")
        #expect(withheld.displayTitle == "Untitled")
        #expect(withheld.detailPicture == nil)
        #expect(withheld.pageNote == "See it on its page: https://museum.example/2")
        #expect(withheld.externalPage == URL(string: "https://museum.example/2"))
        #expect(try object(3).pageNote == "See it on its page: none given")
    }

    @Test("every screen sentence has a German entry with the English entry's placeholders")
    func germanTables() throws {
        let table = Fixtures.packageRoot.appendingPathComponent(
            "Sources/MuseumFeature/Resources/en.lproj/Localizable.strings")
        let keys = try String(contentsOf: table, encoding: .utf8).split(separator: "\n").compactMap { line -> String? in
            guard line.hasPrefix("\"screen."), let end = line.dropFirst().firstIndex(of: "\"") else { return nil }
            return String(line[line.index(after: line.startIndex)..<end])
        }
        #expect(keys.count > 15)
        for key in keys {
            let english = MuseumText.text(key, language: "en")
            let german = MuseumText.text(key, language: "de")
            #expect(german != key, "no German entry for \(key)")
            #expect(placeholders(english) == placeholders(german), "\(key): \(english) / \(german)")
        }
    }

    private func placeholders(_ text: String) -> Set<String> {
        Set(text.split(separator: "{").dropFirst().compactMap { $0.split(separator: "}").first.map(String.init) })
    }
}
