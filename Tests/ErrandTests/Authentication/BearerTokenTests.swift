import Errand
import Foundation
import Testing
import TestSupport

@Suite("Bearer tokens", .enabled(if: TestServer.httpbin.isUsable))
struct BearerTokenTests {
    struct BearerAnswer: Decodable { var authenticated: Bool; var token: String }
    struct HeadersAnswer: Decodable { var headers: [String: String] }

    func client(_ kind: TransportKind, _ middleware: [any Middleware] = []) throws -> APIClient {
        APIClient(
            configuration: ClientConfiguration(
                baseURL: try TestServer.httpbin.url(), transport: kind.make(), middleware: middleware))
    }

    @Test("the middleware's token is accepted by httpbin's /bearer", arguments: TransportKind.allCases)
    func middlewareSendsTheToken(kind: TransportKind) async throws {
        let answer = try await client(kind, [BearerToken("s3cret")]).send(Request<BearerAnswer>(path: "bearer"))
        #expect(answer.value.authenticated)
        #expect(answer.value.token == "s3cret")
    }

    @Test("without a token /bearer answers 401", arguments: TransportKind.allCases)
    func withoutTokenIsRefused(kind: TransportKind) async throws {
        await #expect {
            _ = try await client(kind).send(Request<Data>(path: "bearer"))
        } throws: { error in
            guard case .unacceptableStatus(let failure) = error as? ErrandError else { return false }
            return failure.status == 401
        }
    }

    @Test("the request helper sends the token and replaces the middleware's", arguments: TransportKind.allCases)
    func requestHelperWins(kind: TransportKind) async throws {
        let request = Request<BearerAnswer>(path: "bearer").authorized(bearerToken: "own")
        let answer = try await client(kind, [BearerToken("shared")]).send(request)
        #expect(answer.value.token == "own")
    }

    @Test("a token kept to one server is not sent to another", arguments: TransportKind.allCases)
    func scopedTokenStaysHome(kind: TransportKind) async throws {
        let base = try TestServer.httpbin.url()
        let elsewhere = ServerIdentity(URL(string: "https://api.example.com")!)
        let scoped = try client(kind, [BearerToken("home", server: ServerIdentity(base))])
        let home = try await scoped.send(Request<HeadersAnswer>(path: "headers"))
        #expect(home.value.headers["Authorization"] == "Bearer home")
        let other = try client(kind, [BearerToken("away", server: elsewhere)])
        let away = try await other.send(Request<HeadersAnswer>(path: "headers"))
        #expect(away.value.headers["Authorization"] == nil)
    }
}
