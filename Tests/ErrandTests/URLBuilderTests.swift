import Errand
import Foundation
import Testing

@Suite("URL building")
struct URLBuilderTests {
    let base = URL(string: "https://www.themealdb.com/api/json/v1/1")!

    @Test(
        "query values are encoded outside the unreserved set",
        arguments: [
            ("a+b&c", "a%2Bb%26c"),
            ("mac and cheese", "mac%20and%20cheese"),
            ("x=y|z#w;v,u", "x%3Dy%7Cz%23w%3Bv%2Cu"),
            ("Crème brûlée", "Cr%C3%A8me%20br%C3%BBl%C3%A9e"),
            ("safe-._~AZaz09", "safe-._~AZaz09"),
            ("100%", "100%25"),
            ("/?", "%2F%3F"),
        ])
    func encodesQueryValues(raw: String, encoded: String) throws {
        let url = try URLBuilder.url(base: base, path: "search.php", query: [QueryItem("s", raw)])
        #expect(url.absoluteString == "https://www.themealdb.com/api/json/v1/1/search.php?s=\(encoded)")
    }

    @Test func keepsTheCallersOrder() throws {
        let url = try URLBuilder.url(
            base: base, path: "search",
            query: [
                QueryItem("z", "1"), QueryItem("a", "2"), QueryItem("flag", nil), QueryItem("q", "last"),
            ])
        #expect(url.query == "z=1&a=2&flag&q=last")
    }

    @Test(
        "base URLs with and without a trailing slash join the same way",
        arguments: [
            "https://h.example/api/v1", "https://h.example/api/v1/", "https://h.example/api/v1//",
        ])
    func joinsBaseURLs(base: String) throws {
        for path in ["objects/1", "/objects/1", "objects/1/"] {
            let url = try URLBuilder.url(base: URL(string: base)!, path: path)
            #expect(url.absoluteString == "https://h.example/api/v1/objects/1")
        }
    }

    @Test func encodesPathSegments() throws {
        let url = try URLBuilder.url(base: base, segments: ["images", "ingredients", "Lime & Salt/2.png"])
        #expect(
            url.absoluteString == "https://www.themealdb.com/api/json/v1/1/images/ingredients/Lime%20%26%20Salt%2F2.png"
        )
        let pathURL = try URLBuilder.url(base: base, path: "a b/ü")
        #expect(pathURL.absoluteString == "https://www.themealdb.com/api/json/v1/1/a%20b/%C3%BC")
    }

    @Test func hostOnlyBase() throws {
        let url = try URLBuilder.url(base: URL(string: "https://h.example")!, path: "x")
        #expect(url.absoluteString == "https://h.example/x")
        #expect(
            try URLBuilder.url(base: URL(string: "https://h.example")!, path: "").absoluteString == "https://h.example/"
        )
    }

    @Test func rejectsBaseWithoutHost() {
        #expect(throws: ErrandError.self) { try URLBuilder.url(base: URL(string: "file:///tmp")!, path: "x") }
    }

    @Test func formBodiesUseTheSameEncoding() {
        #expect(URLBuilder.encodeForm([QueryItem("s", "a b+c"), QueryItem("t", "é")]) == "s=a%20b%2Bc&t=%C3%A9")
    }

    @Test("a client's repeated requests reuse the URL built last, and any other path or query builds its own")
    func recentURLFollowsTheInputs() throws {
        let client = APIClient(configuration: ClientConfiguration(baseURL: base))
        let search = Request<Data>(path: "search.php", query: [QueryItem("s", "a+b")])
        let first = try client.makeURL(search)
        #expect(try client.makeURL(search) == first)
        #expect(first.absoluteString.hasSuffix("/search.php?s=a%2Bb"))
        #expect(
            try client.makeURL(Request<Data>(path: "search.php", query: [QueryItem("s", "a b")])).absoluteString
                .hasSuffix("/search.php?s=a%20b"))
        #expect(
            try client.makeURL(Request<Data>(path: "lookup.php", query: [QueryItem("s", "a+b")])).absoluteString
                .hasSuffix("/lookup.php?s=a%2Bb"))
        #expect(try client.makeURL(Request<Data>(segments: ["search.php"], query: [QueryItem("s", "a+b")])) == first)
        // A refused path stays refused right after a success, and does not displace the remembered URL's correctness.
        #expect(throws: ErrandError.self) { try client.makeURL(Request<Data>(path: "a/../b")) }
        #expect(throws: ErrandError.self) { try client.makeURL(Request<Data>(path: "a/../b")) }
        #expect(try client.makeURL(search) == first)
    }
}
