import Errand
import Testing

@testable import MetMuseum

@Suite("Met search query")
struct SearchQueryTests {
    @Test("every filter, in a fixed order, q last")
    func everyFilter() throws {
        let query = SearchQuery(
            "sunflowers & cats", fields: [.title, .tags, .artistOrCulture], isHighlight: true, isOnView: true,
            hasImages: true, departmentID: 11, media: ["Quilts", "Silk"], geoLocations: ["France", "Paris"],
            dateBegin: -500, dateEnd: 1900)
        let items = try query.queryItems()
        #expect(
            items.map(\.name) == [
                "isHighlight", "title", "tags", "isOnView", "artistOrCulture", "hasImages", "departmentId", "medium",
                "geoLocation", "dateBegin", "dateEnd", "q",
            ])
        #expect(
            URLBuilder.encodeQuery(items) == "isHighlight=true&title=true&tags=true&isOnView=true"
                + "&artistOrCulture=true&hasImages=true&departmentId=11&medium=Quilts%7CSilk&geoLocation=France%7CParis"
                + "&dateBegin=-500&dateEnd=1900&q=sunflowers%20%26%20cats")
    }

    @Test("a plain search is q alone; false flags are not sent")
    func plain() throws {
        #expect(try SearchQuery("").queryItems() == [QueryItem("q", "")])
        #expect(try SearchQuery("x", isHighlight: false).queryItems().map(\.name) == ["q"])
    }

    @Test(
        "invalid filters fail before any request",
        arguments: [
            SearchQuery("x", dateBegin: 1800),
            SearchQuery("x", dateEnd: 1800),
            SearchQuery("x", dateBegin: 1900, dateEnd: 1800),
            SearchQuery("x", media: ["Oil|Silk"]),
            SearchQuery("x", geoLocations: [" "]),
        ])
    func invalid(query: SearchQuery) {
        #expect {
            try query.queryItems()
        } throws: { error in
            guard case .invalidQuery(let reason) = error as? MetError else { return false }
            return !reason.isEmpty
        }
    }
}
