@testable import Errand
import Foundation
import TestSupport
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Testing

/// `Set-Cookie` fields as each transport hands them over, from a raw-socket server: curl keeps repeated fields
/// apart, so a comma inside one field stays in its cookie; URLSession joins them, and its transport takes them
/// apart again where a new `name=` follows a comma.
@Suite("Set-Cookie fields on the wire")
struct CookieFieldSplittingTests {
    func cookies(after head: [String], transport: TransportKind) async throws -> [Cookie] {
        let server = try HostileServer(head: ["HTTP/1.1 200 OK", "Content-Length: 0", "Connection: close"] + head)
        let jar = CookieJar(publicSuffixes: .singleLabel)
        var configuration = ClientConfiguration(baseURL: server.url(), transport: transport.make())
        configuration.cookies = jar
        _ = try await APIClient(configuration: configuration).send(Request<Data>(url: server.url("/")))
        return jar.cookies(for: server.url("/"))
    }

    #if canImport(CCurl)
    @Test func aCommaInsideOneFieldStaysInItsCookieOnCurl() async throws {
        let cookies = try await cookies(
            after: ["Set-Cookie: foo=\"bar, baz=qux\"; Path=/", "Set-Cookie: z=y, a=b; Path=/"], transport: .curl)
        #expect(cookies.map(\.pair) == ["foo=\"bar, baz=qux\"", "z=y, a=b"])
    }
    #endif

    @Test(arguments: TransportKind.allCases)
    func repeatedFieldsArriveAsSeparateCookiesInTheirOrder(transport: TransportKind) async throws {
        let cookies = try await cookies(
            after: [
                "Set-Cookie: zulu=1; Path=/; Expires=Wed, 21 Oct 2099 07:28:00 GMT",
                "Set-Cookie: alpha=2; Path=/", "Set-Cookie: mike=3; Path=/",
            ], transport: transport)
        #expect(cookies.map(\.pair) == ["zulu=1", "alpha=2", "mike=3"], "\(transport)")
        #expect(cookies.first?.expires != nil)
    }

    @Test func onlyURLSessionsJoinedFieldsAreTakenApart() throws {
        let joined = HTTPURLResponse(
            url: URL(string: "http://127.0.0.1/")!, statusCode: 200, httpVersion: "HTTP/1.1",
            headerFields: ["Set-Cookie": "a=1; Expires=Wed, 21 Oct 2099 07:28:00 GMT, b=2", "X-List": "c=3, d=4"])
        let headers = HTTPHeaders(urlSessionResponse: try #require(joined))
        #expect(headers.values(for: "Set-Cookie") == ["a=1; Expires=Wed, 21 Oct 2099 07:28:00 GMT", "b=2"])
        #expect(headers.values(for: "X-List") == ["c=3, d=4"])
        let jar = CookieJar(publicSuffixes: .singleLabel)
        jar.receive(HTTPHeaders([.init(name: "Set-Cookie", value: "a=1, b=2")]), from: URL(string: "http://e.com/")!)
        #expect(jar.cookies.map(\.pair) == ["a=1, b=2"])
    }
}
