import Errand
import Foundation
import Synchronization
import TestSupport
import Testing

/// Every credential the library attaches, and every secret name a user sets in any casing, stays out of everything
/// that reports a request: the log sink's lines, the errors' descriptions, a HAR recording and curl commands. The
/// requests go to httpbin, which echoes the headers and query it received into the body the reports quote.
@Suite("Security: credentials are secret by construction", .enabled(if: TestServer.httpbin.isUsable))
struct CredentialSecrecyTests {
    /// One way a credential gets onto a request, and the values that must never be reported.
    struct Credential: Sendable, CustomStringConvertible {
        let description: String
        let middleware: [any Middleware]
        let adjust: @Sendable (inout Request<Data>) -> Void
        let secrets: [String]
        var jar: CookieJar? = nil

        init(
            _ description: String, middleware: [any Middleware] = [], secrets: [String],
            adjust: @escaping @Sendable (inout Request<Data>) -> Void = { _ in }
        ) {
            self.description = description
            self.middleware = middleware
            self.adjust = adjust
            self.secrets = secrets
        }
    }

    static let credentials: [Credential] = {
        var cookie = Credential("a cookie from the client's jar", secrets: ["ck-31337-crumb"])
        cookie.jar = CookieJar(publicSuffixes: .singleLabel)
        return [
            Credential(
                "APIKey in a header", middleware: [APIKey("key-hdr-81723", in: .header("X-API-Key"))],
                secrets: ["key-hdr-81723"]),
            Credential(
                "APIKey in the query", middleware: [APIKey("key-qry-51234", in: .query("apiKey"))],
                secrets: ["key-qry-51234"]),
            Credential("BearerToken", middleware: [BearerToken("tok-bearer-66120")], secrets: ["tok-bearer-66120"]),
            Credential(
                "TokenRefreshMiddleware in a header of its own",
                middleware: [
                    TokenRefreshMiddleware(token: "tok-session-29391", headerName: "X-Session-Token", prefix: "") { _ in
                        "tok-fresh-29392"
                    }
                ], secrets: ["tok-session-29391"]),
            Credential(
                "custom auth: a signing adapter",
                middleware: [RequestAdapter { request in request.setSecretHeader("X-Signature", to: "sig-hdr-40213") }],
                secrets: ["sig-hdr-40213"]),
            Credential(
                "custom auth: a query signature",
                middleware: [
                    ClosureMiddleware { request, _, next in
                        var signed = request
                        try signed.appendSecretQueryItem("Signature", value: "sig-qry-77310")
                        return try await next(signed)
                    }
                ], secrets: ["sig-qry-77310"]),
            Credential("a request's bearer token", secrets: ["tok-request-11873"]) { request in
                request = request.authorized(bearerToken: "tok-request-11873")
            },
            Credential("a request's own secret header", secrets: ["upl-tok-55321"]) { request in
                request.headers["X-Upload-Token"] = "upl-tok-55321"
                request.secrets.headerNames.insert("X-UPLOAD-TOKEN")
            },
            cookie,
        ]
    }()

    /// Header and query secrets the user names, each through another way into the rules and sent in another case.
    static let named: (rules: Redaction, headers: HTTPHeaders, query: [QueryItem], secrets: [String]) = {
        var rules = Redaction(headerNames: ["x-init-lower"], queryNames: Set(["INIT_UPPER"]))
        rules.headerNames.insert("X-Inserted-Secret")
        rules.queryNames.insert("insertedKey")
        let literal: CaseInsensitiveNames = ["X-Literal-Secret"]
        rules.headerNames.formUnion(literal)
        rules.headerNames = rules.headerNames.union(["X-Union-Secret"])
        rules.queryNames.formUnion(Set(["Union_Query"]))
        let headers: HTTPHeaders = [
            "X-INIT-LOWER": "nm-hdr-1001", "x-inserted-secret": "nm-hdr-1002", "X-LITERAL-SECRET": "nm-hdr-1003",
            "x-UNION-secret": "nm-hdr-1004",
        ]
        let query = [
            QueryItem("init_upper", "nm-qry-2001"), QueryItem("INSERTEDKEY", "nm-qry-2002"),
            QueryItem("union_query", "nm-qry-2003"),
        ]
        return (
            rules, headers, query,
            ["nm-hdr-1001", "nm-hdr-1002", "nm-hdr-1003", "nm-hdr-1004"]
                + ["nm-qry-2001", "nm-qry-2002", "nm-qry-2003"]
        )
    }()

    final class Lines: LogSink {
        private let lines = Mutex<[String]>([])
        var all: [String] { lines.withLock { $0 } }
        func write(_ line: String, level: LogLevel) { lines.withLock { $0.append(line) } }
    }

    /// What the innermost middleware printed as curl commands: each request as it goes to the wire.
    final class Commands: Sendable {
        private let commands = Mutex<[String]>([])
        var all: [String] { commands.withLock { $0 } }
        func add(_ command: String) { commands.withLock { $0.append(command) } }
    }

    static let arguments: [(Credential, TransportKind)] = credentials.flatMap { credential in
        TransportKind.allCases.map { (credential, $0) }
    }

    @Test("no credential and no named secret in logs, errors, recordings or curl commands", arguments: arguments)
    func nothingReported(_ credential: Credential, kind: TransportKind) async throws {
        let base = try TestServer.httpbin.url()
        let file = try HARFiles.make("credential-secrecy-\(kind)")
        let recorder = try HARRecorder(file: file)
        let lines = Lines()
        let commands = Commands()
        let printing = ClosureMiddleware { request, context, next in
            commands.add(request.curlCommand(redaction: context.redaction))
            return try await next(request)
        }
        var configuration = ClientConfiguration(
            baseURL: base, transport: kind.make(), middleware: credential.middleware + [printing],
            observers: [recorder, LoggingObserver(level: .debug, sink: lines)], redaction: Self.named.rules)
        if let jar = credential.jar {
            try jar.receive(setCookie: "sid=ck-31337-crumb; Path=/", from: base)
            configuration.cookies = jar
        }
        let client = APIClient(configuration: configuration)
        let secrets = credential.secrets + Self.named.secrets
        func request(_ path: String) -> Request<Data> {
            var request = Request<Data>(path: path, query: Self.named.query, headers: Self.named.headers)
            credential.adjust(&request)
            return request
        }

        // The credentials reach the server: httpbin's echo holds every one, so a report that quoted it would show them.
        let echoed = String(decoding: try await client.send(request("anything/echo")).value, as: UTF8.self)
        for secret in secrets { #expect(echoed.contains(secret), "httpbin did not receive \(secret)") }

        var errors: [ErrandError] = []
        var refused = request("anything/refused")
        refused.acceptedStatusCodes = [204]
        errors.append(try await Self.failure { _ = try await client.send(refused) })
        let undecodable = request("anything/undecodable").decoding(as: [Int].self)
        errors.append(try await Self.failure { _ = try await client.send(undecodable) })
        let streamed = request("anything/streamed")
        errors.append(
            try await Self.failure {
                var refusedStream = streamed
                refusedStream.acceptedStatusCodes = [204]
                _ = try await client.stream(refusedStream)
            })
        // A server that answers nothing HTTP: a transport failure naming the URL the middleware built.
        let broken = try HostileServer(response: Array("not http\r\n\r\n".utf8))
        defer { broken.stop() }
        var wire = request("x")
        wire.target = .url(broken.url("/wire"))
        errors.append(try await Self.failure { _ = try await client.send(wire) })
        await recorder.flush()

        var reports: [(String, String)] = lines.all.map { ("the log", $0) }
        for error in errors {
            reports += [
                ("an error's description", error.description), ("an error's debugDescription", error.debugDescription),
                ("an error's userMessage", error.userMessage), ("an error, reflected", String(reflecting: error)),
            ]
        }
        reports.append(("the HAR recording", try String(contentsOf: file, encoding: .utf8)))
        reports += commands.all.map { ("a curl command", $0) }
        reports.append(("client.curlCommand(for:)", try client.curlCommand(for: request("anything/echo"))))
        #expect(lines.all.count >= 5, "every exchange logged")
        #expect(commands.all.count >= 5, "every request printed")
        #expect(recorder.entries.count >= 4, "every answered exchange recorded")
        for (place, text) in reports {
            for secret in secrets { #expect(!text.contains(secret), "\(secret) in \(place): \(text)") }
        }
    }

    static func failure(_ body: () async throws -> Void) async throws -> ErrandError {
        do {
            try await body()
        } catch let error as ErrandError {
            return error
        }
        Issue.record("the request did not fail")
        return .cancelled
    }

    @Test(
        "a key set as a header by APIKey stays behind on a redirect to another server",
        .enabled(if: TestServer.fault.isUsable), arguments: TransportKind.allCases)
    func secretHeaderStaysHome(kind: TransportKind) async throws {
        let fault = try TestServer.fault.url()
        let key = "secret-redirect-\(kind)-\(UUID().uuidString.prefix(8))"
        let target = fault.appendingPathComponent("ok").appendingPathComponent(key).absoluteString
        let client = APIClient(
            configuration: ClientConfiguration(
                baseURL: try TestServer.httpbin.url(), transport: kind.make(),
                middleware: [
                    APIKey("key-hdr-90001", in: .header("X-API-Key")),
                    TokenRefreshMiddleware(token: "tok-90002", headerName: "X-Session", prefix: "") { _ in "tok-90003"
                    },
                ]))
        let response = try await client.send(
            Request<Data>(path: "redirect-to", query: [QueryItem("url", target), QueryItem("status_code", "302")]))
        #expect(response.status == 200)
        struct Logged: Decodable { var headers: [String: String] }
        let logClient = APIClient(configuration: ClientConfiguration(baseURL: fault, transport: kind.make()))
        let log = try await logClient.send(Request<[Logged]>(path: "__log", query: [QueryItem("key", key)])).value
        let received = Set(try #require(log.last).headers.keys.map { $0.lowercased() })
        #expect(!received.contains("x-api-key"))
        #expect(!received.contains("x-session"))
        #expect(received.contains("user-agent"), "the other fields follow the redirect")
        _ = try? await logClient.send(Request<Data>(method: .delete, path: "__log", query: [QueryItem("key", key)]))
    }
}
