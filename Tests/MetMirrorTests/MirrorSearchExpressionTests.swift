import MetMuseum
import Testing

@testable import MetMirror

@Suite("Mirror search expressions")
struct MirrorSearchExpressionTests {
    @Test("each word is a required prefix, a plural's s dropped, in the default fields")
    func words() {
        let expression = MirrorStore.matchExpression("Sunflowers  blue,jug", fields: [])
        #expect(
            expression == "{title object_name medium tags artist culture} : (\"sunflower\"* AND \"blue\"* AND \"jug\"*)"
        )
    }

    @Test("field flags narrow the columns")
    func fields() {
        #expect(MirrorStore.matchExpression("cat", fields: .title) == "{title} : (\"cat\"*)")
        #expect(MirrorStore.matchExpression("cat", fields: .tags) == "{tags} : (\"cat\"*)")
        #expect(MirrorStore.matchExpression("holt", fields: .artistOrCulture) == "{artist culture} : (\"holt\"*)")
    }

    @Test("quotes are escaped; text without a letter or digit matches nothing")
    func hostile() {
        #expect(
            MirrorStore.matchExpression("a\"b", fields: [])
                == "{title object_name medium tags artist culture} : (\"a\"\"b\"*)")
        #expect(MirrorStore.matchExpression("  *** ", fields: []) == nil)
        #expect(MirrorStore.matchExpression("", fields: []) == nil)
    }

    @Test("the transport reads the SDK's search items back into the query")
    func queryItems() throws {
        var query = SearchQuery("cat", fields: [.title], isHighlight: true, hasImages: true, departmentID: 10)
        query.media = ["Bronze", "Faience"]
        query.geoLocations = ["Egypt"]
        query.dateBegin = -700
        query.dateEnd = -300
        let items = Dictionary(try query.queryItems().map { ($0.name, $0.value ?? "") }, uniquingKeysWith: { $1 })
        #expect(MirrorTransport.searchQuery(items) == query)
    }
}
