@testable import Errand
import Foundation
import TestSupport
import Testing

/// Cookies over the wire on both transports against the cookie server: set by one response and sent with the next,
/// set by a redirect and sent to its target, kept from other hosts, and masked wherever the exchange is reported.
@Suite("Cookies over the wire", .enabled(if: TestServer.cookie.isUsable))
struct CookieWireTests {
    func client(_ transport: TransportKind, jar: CookieJar?, observers: [any ExchangeObserver] = []) throws -> APIClient
    {
        var configuration = ClientConfiguration(
            baseURL: try TestServer.cookie.url(), transport: transport.make(), observers: observers)
        configuration.cookies = jar
        return APIClient(configuration: configuration)
    }

    func body(_ client: APIClient, _ url: URL, headers: HTTPHeaders = [:]) async throws -> String {
        String(decoding: try await client.send(Request<Data>(url: url, headers: headers)).value, as: UTF8.self)
    }

    @Test(arguments: TransportKind.allCases)
    func aCookieSetByOneResponseIsSentWithTheNext(transport: TransportKind) async throws {
        let route = try CookieServerRoute()
        let jar = CookieJar(publicSuffixes: .singleLabel)
        let client = try client(transport, jar: jar)
        _ = try await body(client, route.set(["sid=abc; Path=/", "theme=dark; Path=/; HttpOnly; SameSite=Lax"]))
        #expect(try await body(client, route.echo()) == "sid=abc; theme=dark")
        #expect(jar.cookies.first { $0.name == "theme" }?.sameSite == .lax)
    }

    @Test(arguments: TransportKind.allCases)
    func aRedirectThatSetsACookieIsFollowedWithIt(transport: TransportKind) async throws {
        let route = try CookieServerRoute()
        let client = try client(transport, jar: CookieJar(publicSuffixes: .singleLabel))
        let login = route.redirect(to: route.echo("/home"), setting: ["session=s1; Path=/; Max-Age=600"])
        #expect(try await body(client, login) == "session=s1")
        let log = try await route.log()
        #expect(log.map(\.cookie) == [nil, "session=s1"])
    }

    @Test(arguments: TransportKind.allCases)
    func cookiesStayWithTheirHostAcrossARedirectToAnother(transport: TransportKind) async throws {
        let route = try CookieServerRoute()
        let client = try client(transport, jar: CookieJar(publicSuffixes: .singleLabel))
        _ = try await body(client, route.set(["here=1; Path=/"]))
        // 127.0.0.1 sets one more and sends the request to localhost, which sets its own and sends it back.
        let back = route.echo("/back")
        let there = route.redirect(to: back, setting: ["there=2; Path=/"], path: "/2", on: route.otherHost)
        #expect(try await body(client, route.redirect(to: there, setting: ["also=3; Path=/"])) == "here=1; also=3")
        let log = try await route.log()
        #expect(log.map(\.cookie) == [nil, "here=1", nil, "here=1; also=3"])
        #expect(try await body(client, route.echo(on: route.otherHost)) == "there=2")
    }

    @Test(arguments: TransportKind.allCases)
    func aPersistedJarSendsItsCookiesAfterTheClientIsGone(transport: TransportKind) async throws {
        let route = try CookieServerRoute()
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("errand-jar-\(route.key).sqlite")
        defer { SQLiteFile.remove(at: file.path) }
        do {
            let client = try client(transport, jar: try CookieJar(fileURL: file, publicSuffixes: .singleLabel))
            _ = try await body(client, route.set(["kept=1; Path=/; Max-Age=600", "session=1; Path=/"]))
        }
        let client = try client(transport, jar: try CookieJar(fileURL: file, publicSuffixes: .singleLabel))
        #expect(try await body(client, route.echo()) == "kept=1")
    }

    @Test(arguments: TransportKind.allCases)
    func theCallersOwnCookieFieldComesFirstAndTheJarsFollow(transport: TransportKind) async throws {
        let route = try CookieServerRoute()
        let client = try client(transport, jar: CookieJar(publicSuffixes: .singleLabel))
        _ = try await body(client, route.set(["jar=1; Path=/"]))
        #expect(try await body(client, route.echo(), headers: ["Cookie": "mine=0"]) == "mine=0; jar=1")
    }

    @Test(arguments: TransportKind.allCases)
    func withoutAJarNeitherTransportKeepsCookies(transport: TransportKind) async throws {
        let route = try CookieServerRoute()
        let client = try client(transport, jar: nil)
        _ = try await body(client, route.set(["sid=abc; Path=/"]))
        #expect(try await body(client, route.redirect(to: route.echo(), setting: ["r=1; Path=/"])) == "")
    }

    @Test(arguments: TransportKind.allCases)
    func aStreamedBodyGetsAndSetsCookiesToo(transport: TransportKind) async throws {
        let route = try CookieServerRoute()
        let jar = CookieJar(publicSuffixes: .singleLabel)
        let client = try client(transport, jar: jar)
        _ = try await body(client, route.set(["a=1; Path=/"]))
        let stream = try await client.stream(
            Request<Data>(url: route.redirect(to: route.echo(), setting: ["b=2; Path=/"])))
        var received = Data()
        for try await chunk in stream.body { received += chunk }
        #expect(String(decoding: received, as: UTF8.self) == "a=1; b=2")
    }

    @Test(arguments: TransportKind.allCases)
    func cookiesAreMaskedInObserverEventsErrorsAndCurlCommands(transport: TransportKind) async throws {
        let route = try CookieServerRoute()
        let recorder = EventRecorder()
        let jar = CookieJar(publicSuffixes: .singleLabel)
        let client = try client(transport, jar: jar, observers: [recorder])
        _ = try await body(client, route.set(["secret=s3cr3t; Path=/"]))
        _ = try await body(client, route.echo())
        // The first request's URL holds the cookie as the server is told to set it; the second only sends it.
        let sending = try #require(recorder.recorded.last)
        #expect(sending.requestHeaders["Cookie"] == Redaction.mask)
        #expect(!"\(sending)".contains("s3cr3t"))

        var refused = Request<Data>(url: route.set(["other=t0ps3cr3t; Path=/"]))
        refused.acceptedStatusCodes = [201]
        await #expect {
            try await client.send(refused)
        } throws: { error in
            guard case .unacceptableStatus(let failure) = error as? ErrandError else { return false }
            return failure.headers["Set-Cookie"] == Redaction.mask && !"\(failure)".contains("t0ps3cr3t")
        }
        // A failed response's cookies are stored all the same, as a browser stores them.
        #expect(jar.cookies.contains { $0.name == "other" })

        let command = try client.curlCommand(for: Request<Data>(url: route.echo()))
        #expect(command.contains("Cookie: \(Redaction.mask)"))
        #expect(!command.contains("s3cr3t"))
        #expect(
            try client.curlCommand(for: Request<Data>(url: route.echo()), showingSecrets: true).contains(
                "secret=s3cr3t"))
    }
}
