import Errand
import Foundation
import Testing
import TestSupport

@testable import MetMuseum

/// The real service's responses in ../shared/fixtures/met decode, quirks included.
@Suite("Met fixtures")
struct FixtureDecodingTests {
    private let decoder = JSONDecoder()

    @Test("every fixture file decodes", .enabled(if: Fixtures.available("met")))
    func everyFixtureDecodes() throws {
        let names = Fixtures.names("met")
        #expect(!names.isEmpty)
        for name in names {
            let data = try Fixtures.data("met", name)
            switch name {
            case "departments.json":
                #expect(try decoder.decode(DepartmentList.self, from: data).departments.count == 19)
            case let name where name.hasPrefix("search_"):
                let list = try decoder.decode(ObjectIDList.self, from: data)
                #expect(list.total == list.ids.count, "\(name)")
            case let name where name.hasPrefix("object_error"):
                let failure = StatusFailure(status: 400, headers: [:], body: data, url: nil)
                guard case .invalidQuery(let reason) = MetError(.unacceptableStatus(failure)) else {
                    Issue.record("\(name) was not read as the Met's message")
                    continue
                }
                #expect(reason.contains("could not parse objectID"))
            case let name where name.hasPrefix("object_"):
                let object = try decoder.decode(MetObject.self, from: data)
                #expect(object.objectID > 0, "\(name)")
                #expect(object.title != nil, "\(name)")
            default:
                Issue.record("no decoding rule for fixture \(name)")
            }
        }
    }

    @Test(
        "a non-public-domain object: empty images are nil, null lists are empty",
        .enabled(if: Fixtures.available("met")))
    func notPublicDomain() throws {
        let object = try decoder.decode(MetObject.self, from: Fixtures.data("met", "object_1.json"))
        #expect(object.isPublicDomain == false)
        #expect(object.primaryImage == nil && object.primaryImageSmall == nil && object.thumbnail == nil)
        #expect(object.additionalImages.isEmpty)
        #expect(object.measurements.isEmpty && object.tags.isEmpty)
        #expect(object.culture == nil && object.galleryNumber == nil)
        #expect(
            object.constituents == [
                Constituent(
                    id: 164292, role: "Maker", name: "James Barton Longacre", gender: nil,
                    ulanURL: URL(string: "http://vocab.getty.edu/page/ulan/500011409"),
                    wikidataURL: URL(string: "https://www.wikidata.org/wiki/Q3806459"))
            ])
        #expect(object.metadataDate.map(MetadataDate.format) == "2021-04-06T04:41:04.967Z")
    }

    @Test("null constituents, reversed dates, gallery number", .enabled(if: Fixtures.available("met")))
    func catAmulet() throws {
        let object = try decoder.decode(MetObject.self, from: Fixtures.data("met", "object_544120.json"))
        #expect(object.constituents.isEmpty)
        #expect(object.objectBeginDate == -664 && object.objectEndDate == -712)
        #expect(object.dateRange == -712 ... -664)
        #expect(object.galleryNumber == "127" && object.isOnView)
        #expect(object.additionalImages.count == 4)
        #expect(object.measurements.first?.elementMeasurements == ["Height": 2.3])
        #expect(
            object.tags == [
                ObjectTag(
                    term: "Cats", aatURL: URL(string: "http://vocab.getty.edu/page/aat/300265960"),
                    wikidataURL: URL(string: "https://www.wikidata.org/wiki/Q146"))
            ])
    }

    @Test(
        "older records: no constituent ID, tags without Wikidata, no measurements",
        .enabled(if: Fixtures.available("met")))
    func olderRecord() throws {
        let object = try decoder.decode(MetObject.self, from: Fixtures.data("met", "object_45734_openverse.json"))
        #expect(object.constituents.first?.id == nil)
        #expect(object.constituents.first?.name == "Kiyohara Yukinobu")
        #expect(object.tags.map(\.term) == ["Birds", "Leaves"])
        #expect(object.tags.allSatisfy { $0.wikidataURL == nil && $0.aatURL != nil })
        #expect(object.measurements.isEmpty)
        #expect(object.galleryNumber == nil)
    }

    @Test("metadataDate with two fractional digits", .enabled(if: Fixtures.available("met")))
    func twoFractionalDigits() throws {
        let object = try decoder.decode(MetObject.self, from: Fixtures.data("met", "object_45734_docs_example.json"))
        #expect(object.metadataDate.map(MetadataDate.format) == "2020-09-14T12:26:37.480Z")
        #expect(
            object.primaryImageSmall?.absoluteString
                == "https://images.metmuseum.org/CRDImages/as/web-large/DP251139.jpg")
    }

    @Test(
        "every field of every object fixture is a property, its text kept and its empty strings nil",
        .enabled(if: Fixtures.available("met")))
    func everyFieldIsKept() throws {
        let names = Fixtures.names("met").filter { $0.hasPrefix("object_") && !$0.hasPrefix("object_error") }
        #expect(names.count == 4)
        for name in names {
            let data = try Fixtures.data("met", name)
            let raw = try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
            let object = try decoder.decode(MetObject.self, from: data)
            let encoded = try #require(
                try JSONSerialization.jsonObject(with: JSONEncoder().encode(object)) as? [String: Any])
            for (key, value) in raw {
                // The SDK's names drop the Met's underscores and capital G: artistULAN_URL is artistULANURL.
                let property = key == "GalleryNumber" ? "galleryNumber" : key.replacingOccurrences(of: "_", with: "")
                let kept = try #require(encoded[property], "\(name): \(key) is not a property of MetObject")
                switch value {
                case let text as String where text.isEmpty:
                    #expect(kept is NSNull, "\(name): an empty \(key) is not nil")
                case let text as String where key != "metadataDate":
                    #expect(kept as? String == text, "\(name): \(key) is \(kept), not \(text)")
                case is NSNull:
                    #expect(kept is NSNull || (kept as? [Any])?.isEmpty == true, "\(name): \(key)")
                default:
                    #expect(!(kept is NSNull), "\(name): \(key) was dropped")
                }
            }
        }
    }

    @Test("the artist's prefix, suffix and sort name", .enabled(if: Fixtures.available("met")))
    func artistNameParts() throws {
        let coin = try decoder.decode(MetObject.self, from: Fixtures.data("met", "object_1.json"))
        #expect(coin.artistAlphaSort == "Longacre, James Barton")
        #expect(coin.artistPrefix == nil && coin.artistSuffix == nil)
        let scroll = try decoder.decode(MetObject.self, from: Fixtures.data("met", "object_45734_openverse.json"))
        #expect(scroll.artistAlphaSort == "Kiyohara Yukinobu")
        let amulet = try decoder.decode(MetObject.self, from: Fixtures.data("met", "object_544120.json"))
        #expect(amulet.artistAlphaSort == nil && amulet.artistDisplayName == nil)
        // And back: the SDK's own encoding decodes to the same object.
        #expect(try decoder.decode(MetObject.self, from: JSONEncoder().encode(coin)) == coin)
    }

    @Test("an empty search's null IDs decode as none", .enabled(if: Fixtures.available("met")))
    func emptySearch() throws {
        let list = try decoder.decode(ObjectIDList.self, from: Fixtures.data("met", "search_q_empty_no_results.json"))
        #expect(list.total == 0 && list.ids.isEmpty && list.isEmpty)
    }
}
