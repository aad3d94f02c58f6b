@testable import Errand
import Foundation
import TestSupport
import Testing

/// The same scenarios against the cookie server through Errand's jar and through curl's own cookie engine
/// (`curl -L -c jar -b jar`), compared step by step (the `Cookie` field each final response received) and by what
/// each stored (its Netscape file). Where the two differ, the scenario names both answers; the KeepingCookies article says why
/// Errand's is the one RFC 6265bis gives.
@Suite(
    "Cookies compared with curl's engine",
    .enabled(if: TestServer.cookie.isUsable && FileManager.default.isExecutableFile(atPath: "/usr/bin/curl")))
struct CookieCurlEngineComparisonTests {
    /// One request of a scenario: a route, and the `Set-Cookie` fields it answers with.
    enum Step {
        case set([String], path: String = "", localhost: Bool = false)
        case redirectToEcho([String], localhost: Bool = false)
        case echo(localhost: Bool = false)
    }

    struct Scenario: Sendable, CustomStringConvertible {
        var description: String
        var steps: [Step]
        /// What each step's final response received, `-` for no `Cookie` field.
        var received: [String]
        /// What is stored afterwards: `domain subdomains path secure httpOnly name=value lifetime`.
        var stored: [String]
        /// curl's answers where they differ from Errand's.
        var curlReceived: [String]? = nil
        var curlStored: [String]? = nil
    }

    static let host = "127.0.0.1"

    static let scenarios: [Scenario] = [
        Scenario(
            description: "a host-only cookie comes back", steps: [.set(["a=1; Path=/"]), .echo()],
            received: ["-", "a=1"], stored: ["127.0.0.1 FALSE / FALSE FALSE a=1 session"]),
        Scenario(
            description: "Secure is kept to https and loopback", steps: [.set(["s=1; Secure; Path=/"]), .echo()],
            received: ["-", "s=1"], stored: ["127.0.0.1 FALSE / TRUE FALSE s=1 session"]),
        Scenario(
            description: "a 302 that sets a cookie sends it to its target", steps: [.redirectToEcho(["r=1; Path=/"])],
            received: ["r=1"], stored: ["127.0.0.1 FALSE / FALSE FALSE r=1 session"]),
        Scenario(
            description: "a redirect to another host leaves the cookie behind",
            steps: [.set(["home=1; Path=/"]), .redirectToEcho([], localhost: true), .set([], localhost: true)],
            received: ["-", "-", "-"], stored: ["127.0.0.1 FALSE / FALSE FALSE home=1 session"]),
        Scenario(
            description: "Max-Age=0 and a past Expires remove",
            steps: [
                .set(["a=1; Path=/", "b=1; Path=/"]),
                .set(["a=x; Path=/; Max-Age=0", "b=x; Path=/; Expires=Thu, 01 Jan 1970 00:00:01 GMT"]), .echo(),
            ],
            received: ["-", "a=1; b=1", "-"], stored: [],
            curlReceived: ["-", "a=1; b=1", "a=1"], curlStored: ["127.0.0.1 FALSE / FALSE FALSE a=1 session"]),
        Scenario(
            description: "HttpOnly and SameSite are stored, and sent",
            steps: [.set(["h=1; Path=/; HttpOnly; SameSite=Strict"]), .echo()],
            received: ["-", "h=1"], stored: ["127.0.0.1 FALSE / FALSE TRUE h=1 session"]),
        Scenario(
            description: "a cookie of 4097 bytes is refused, one of 4096 kept",
            steps: [.set(["big=" + String(repeating: "v", count: 4094) + "; Path=/", "ok=1; Path=/"]), .echo()],
            received: ["-", "ok=1"], stored: ["127.0.0.1 FALSE / FALSE FALSE ok=1 session"]),
        Scenario(
            description: "the default path is the request's directory",
            steps: [.set(["p=1"], path: "/dir/page"), .set([], path: "/dir/other"), .set([], path: "/dirx")],
            received: ["-", "p=1", "-"], stored: ["127.0.0.1 FALSE /set/KEY/dir FALSE FALSE p=1 session"],
            curlStored: ["127.0.0.1 FALSE /set/KEY/dir/ FALSE FALSE p=1 session"]),
        Scenario(
            description: "cookies with equal paths go oldest first",
            steps: [.set(["a=1; Path=/"]), .set(["bb=1; Path=/"]), .echo()],
            received: ["-", "a=1", "a=1; bb=1"],
            stored: ["127.0.0.1 FALSE / FALSE FALSE a=1 session", "127.0.0.1 FALSE / FALSE FALSE bb=1 session"],
            curlReceived: ["-", "a=1", "bb=1; a=1"]),
        Scenario(
            description: "a cookie without a name is kept", steps: [.set(["justvalue; Path=/"]), .echo()],
            received: ["-", "justvalue"], stored: ["127.0.0.1 FALSE / FALSE FALSE =justvalue session"],
            curlReceived: ["-", "-"], curlStored: []),
        Scenario(
            description: "__Host- with a Domain is refused",
            steps: [.set(["__Host-a=1; Secure; Path=/; Domain=127.0.0.1", "__Secure-b=1; Path=/"]), .echo()],
            received: ["-", "-"], stored: [],
            curlReceived: ["-", "__Host-a=1"], curlStored: ["127.0.0.1 FALSE / TRUE FALSE __Host-a=1 session"]),
        Scenario(
            description: "an Expires that is not an HTTP date is ignored",
            steps: [.set(["e=1; Path=/; Expires=Wed, 21-Oct-2037 07:28:00 GMT"]), .echo()],
            received: ["-", "e=1"], stored: ["127.0.0.1 FALSE / FALSE FALSE e=1 session"],
            curlStored: ["127.0.0.1 FALSE / FALSE FALSE e=1 until:2139722880"]),
        Scenario(
            description: "no cookie lasts longer than 400 days",
            steps: [.set(["m=1; Path=/; Max-Age=999999999"]), .echo()],
            received: ["-", "m=1"], stored: ["127.0.0.1 FALSE / FALSE FALSE m=1 days:400"],
            curlStored: ["127.0.0.1 FALSE / FALSE FALSE m=1 days:11574"]),
        Scenario(
            description: "a single-label Domain is the host's own cookie",
            steps: [.set(["l=1; Domain=localhost; Path=/"], localhost: true), .echo(localhost: true)],
            received: ["-", "l=1"], stored: ["localhost FALSE / FALSE FALSE l=1 session"],
            curlStored: [".localhost TRUE / FALSE FALSE l=1 session"]),
    ]

    @Test(arguments: scenarios)
    func errandAndCurlAgreeOrDifferAsNamed(scenario: Scenario) async throws {
        let errand = try await runErrand(scenario)
        let curl = try await runCurl(scenario)
        #expect(errand.received == scenario.received, "Errand, \(scenario)")
        #expect(errand.stored == scenario.stored, "Errand, \(scenario)")
        #expect(curl.received == (scenario.curlReceived ?? scenario.received), "curl, \(scenario)")
        #expect(curl.stored == (scenario.curlStored ?? scenario.stored), "curl, \(scenario)")
    }

    // MARK: Running

    private func url(_ step: Step, _ route: CookieServerRoute) -> URL {
        switch step {
        case .set(let cookies, let path, let localhost):
            return route.set(cookies, path: path, on: localhost ? route.otherHost : nil)
        case .redirectToEcho(let cookies, let localhost):
            return route.redirect(to: route.echo(on: localhost ? route.otherHost : nil), setting: cookies)
        case .echo(let localhost):
            return route.echo(on: localhost ? route.otherHost : nil)
        }
    }

    private func runErrand(_ scenario: Scenario) async throws -> (received: [String], stored: [String]) {
        let route = try CookieServerRoute()
        let jar = CookieJar()
        var configuration = ClientConfiguration(
            baseURL: route.base, transport: TransportKind.allCases[0].make())
        configuration.cookies = jar
        let client = APIClient(configuration: configuration)
        var received: [String] = []
        for step in scenario.steps {
            let response = try await client.send(Request<Data>(url: url(step, route)))
            received.append(response.headers["X-Cookie-Received"] ?? "?")
        }
        return (received, Self.stored(jar.netscapeFile(), key: route.key))
    }

    private func runCurl(_ scenario: Scenario) async throws -> (received: [String], stored: [String]) {
        let route = try CookieServerRoute()
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("errand-curl-\(route.key).txt")
        defer { try? FileManager.default.removeItem(at: file) }
        var received: [String] = []
        for step in scenario.steps {
            let output = try await Self.run(
                "/usr/bin/curl",
                [
                    "-s", "-L", "-o", "/dev/null", "-c", file.path, "-b", file.path, "-w", "%header{x-cookie-received}",
                    url(step, route).absoluteString,
                ])
            received.append(output)
        }
        let text = (try? String(contentsOf: file, encoding: .utf8)) ?? ""
        return (received, Self.stored(text, key: route.key))
    }

    /// A Netscape file's cookies as the scenarios write them, the route's key as `KEY` and the expiry as `session`,
    /// whole days from now or the date itself when it is fixed.
    private static func stored(_ file: String, key: String) -> [String] {
        let now = Date().timeIntervalSince1970
        return file.split(separator: "\n").compactMap { line -> String? in
            var line = Substring(line)
            let httpOnly = line.hasPrefix("#HttpOnly_")
            if httpOnly { line = line.dropFirst("#HttpOnly_".count) } else if line.hasPrefix("#") { return nil }
            let fields = line.split(separator: "\t", omittingEmptySubsequences: false).map(String.init)
            guard fields.count == 7, let expiry = Double(fields[4]) else { return nil }
            let lifetime: String
            if expiry == 0 {
                lifetime = "session"
            } else if expiry > 2_000_000_000, expiry < 2_200_000_000, abs(expiry - now - 400 * 86_400) > 86_400 {
                lifetime = "until:\(Int(expiry))"
            } else {
                lifetime = "days:\(Int(((expiry - now) / 86_400).rounded()))"
            }
            let path = fields[2].replacingOccurrences(of: key, with: "KEY")
            return [
                fields[0], fields[1], path, fields[3], httpOnly ? "TRUE" : "FALSE", fields[5] + "=" + fields[6],
                lifetime,
            ].joined(separator: " ")
        }
        .sorted()
    }

    /// Runs a program and returns what it printed.
    private static func run(_ executable: String, _ arguments: [String]) async throws -> String {
        let process = ChildProcess()
        let output = Pipe()
        process.executableURL = URL(fileURLWithPath: executable)
        process.arguments = arguments
        process.standardOutput = output
        process.standardInput = FileHandle.nullDevice
        let exited = AsyncStream<Void>.makeStream()
        process.terminationHandler = { _ in exited.continuation.finish() }
        try process.run()
        for await _ in exited.stream {}
        return String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
    }
}
