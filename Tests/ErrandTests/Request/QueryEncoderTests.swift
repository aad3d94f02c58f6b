import Errand
import ErrandTesting
import Foundation
import Testing

/// `Encodable` values as query items and form bodies: names in the documented convention, values in encode order,
/// encoded as every query item is.
@Suite("Encodable query items and forms")
struct QueryEncoderTests {
    struct Search: Encodable {
        enum Sort: String, Encodable { case newest }
        struct Page: Encodable {
            var size: Int
            var after: String?
        }
        var q: String
        var tags: [String]
        var page: Page?
        var sort: Sort
        var exact: Bool
        var ratio: Double
    }

    private static let search = Search(
        q: "mac & cheese", tags: ["a+b", "ü"], page: .init(size: 20, after: nil), sort: .newest, exact: false,
        ratio: 0.5)

    @Test("names, values and order follow the convention")
    func itemsFollowTheConvention() throws {
        let items = try QueryEncoder().encode(Self.search)
        #expect(
            items == [
                QueryItem("q", "mac & cheese"), QueryItem("tags[]", "a+b"), QueryItem("tags[]", "ü"),
                QueryItem("page[size]", "20"), QueryItem("sort", "newest"), QueryItem("exact", "false"),
                QueryItem("ratio", "0.5"),
            ])
    }

    @Test("arrays repeated or indexed when asked")
    func arrayEncodings() throws {
        struct Tags: Encodable { var tag: [Int] }
        #expect(
            try QueryEncoder(arrayEncoding: .repeated).encode(Tags(tag: [1, 2])) == [
                QueryItem("tag", "1"), QueryItem("tag", "2"),
            ])
        #expect(
            try QueryEncoder(arrayEncoding: .indexed).encode(Tags(tag: [1, 2])) == [
                QueryItem("tag[0]", "1"), QueryItem("tag[1]", "2"),
            ])
    }

    @Test("dates, URLs and data have one text each")
    func scalarTexts() throws {
        struct Values: Encodable {
            var since: Date
            var link: URL
            var blob: Data
        }
        let values = Values(
            since: Date(timeIntervalSince1970: 1_764_644_400), link: URL(string: "https://example.com/a?b=c")!,
            blob: Data([0xFF, 0x00]))
        #expect(
            try QueryEncoder().encode(values) == [
                QueryItem("since", "2025-12-02T03:00:00Z"), QueryItem("link", "https://example.com/a?b=c"),
                QueryItem("blob", "/wA="),
            ])
    }

    @Test("a value that is not keyed at the top is refused as an invalid request")
    func topLevelMustBeKeyed() {
        #expect(throws: ErrandError.self) { try QueryEncoder().encode(["a", "b"]) }
        #expect(throws: ErrandError.self) { try QueryEncoder().encode("text") }
    }

    @Test("the URL and the form body are RFC 3986-encoded like any query")
    func wireEncoding() async throws {
        let stub = StubTransport()
        stub.respond(to: "search", body: Data())
        let client = APIClient(
            configuration: ClientConfiguration(baseURL: URL(string: "https://example.com")!, transport: stub))
        let request = Request<Data>(path: "search", query: try QueryEncoder().encode(Self.search))
        _ = try await client.send(request)
        _ = try await client.send(
            Request<Data>(method: .post, path: "search", body: try .form(encoding: Self.search)))
        let expected =
            "q=mac%20%26%20cheese&tags%5B%5D=a%2Bb&tags%5B%5D=%C3%BC&page%5Bsize%5D=20&sort=newest&exact=false&ratio=0.5"
        #expect(stub.requests.first?.url.query == expected)
        guard case .data(let body) = stub.requests.last?.body else {
            Issue.record("the form was not a body in memory")
            return
        }
        #expect(String(decoding: body, as: UTF8.self) == expected)
        #expect(stub.requests.last?.headers["Content-Type"] == "application/x-www-form-urlencoded")
    }
}
