import Errand
import Foundation
import Testing
import TestSupport

/// The Fetch standard's redirect behaviours, run against the fault server over every transport: the one follower
/// above the transports decides each hop, so both must agree case by case.
@Suite("Redirects: one follower, the Fetch rules, every transport", .enabled(if: TestServer.fault.isUsable))
struct RedirectFollowerTests {
    /// One request as the echo route answered it.
    struct Echo: Decodable {
        var method: String
        var headers: [String: String]
        var body: String

        func header(_ name: String) -> String? {
            headers.first { $0.key.lowercased() == name.lowercased() }?.value
        }
    }

    enum Origin: String, CaseIterable, Sendable {
        case same, other
    }

    struct MethodCase: Sendable, CustomStringConvertible {
        var status: Int
        var method: HTTPMethod
        var origin: Origin
        var description: String { "\(status) \(method) \(origin)" }
    }

    static let methodCases: [MethodCase] = [301, 302, 303, 307, 308].flatMap { status in
        [HTTPMethod.get, .post, .put, .head].flatMap { method in
            Origin.allCases.map { MethodCase(status: status, method: method, origin: $0) }
        }
    }

    /// The method Fetch sends after a redirect: 301/302 turn POST into GET; 303 turns all but GET and HEAD into GET.
    static func expectedMethod(after status: Int, from method: HTTPMethod) -> HTTPMethod {
        switch status {
        case 301, 302: method == .post ? .get : method
        case 303: method == .head ? .head : .get
        default: method
        }
    }

    /// The request, taking any status in `codes` as its answer.
    func accepting<Value>(_ request: Request<Value>, _ codes: Range<Int>) -> Request<Value> {
        var request = request
        request.acceptedStatusCodes = Set(codes)
        return request
    }

    /// The fault server under another name: another server (another host), the same process.
    static func otherOrigin(_ base: URL) throws -> URL {
        var components = try #require(URLComponents(url: base, resolvingAgainstBaseURL: false))
        components.host = "localhost"
        return try #require(components.url)
    }

    @Test(
        "method, body, body fields and credentials per status, method and origin", arguments: TransportKind.allCases,
        methodCases)
    func methodAndBody(kind: TransportKind, rule: MethodCase) async throws {
        let scenario = try FaultScenario(kind)
        let target = try (rule.origin == .same ? scenario.base : Self.otherOrigin(scenario.base))
            .appendingPathComponent(scenario.path("echo", "landed"))
        let hasBody = rule.method == .post || rule.method == .put
        let request = Request<Data>(
            method: rule.method, path: scenario.path("redirect", "\(rule.status)", "start"),
            query: [QueryItem("to", target.absoluteString)],
            headers: ["Authorization": "Bearer secret", "Content-Language": "de", "X-Trace": "t1"],
            body: hasBody ? .text("the payload") : nil)
        let response = try await scenario.client().send(request)
        #expect(response.status == 200)
        #expect(response.url.absoluteString == target.absoluteString)
        #expect(response.metrics.redirectCount == 1)

        let arrived = try #require(try await scenario.log().last)
        let method = Self.expectedMethod(after: rule.status, from: rule.method)
        #expect(arrived.method == method.rawValue, "\(rule)")
        let keepsBody = hasBody && method == rule.method
        #expect(arrived.length == (keepsBody ? 11 : 0), "\(rule)")
        #expect((arrived.header("Content-Type") != nil) == keepsBody, "\(rule)")
        #expect((arrived.header("Content-Language") != nil) == (method == rule.method), "\(rule)")
        #expect((arrived.header("Authorization") != nil) == (rule.origin == .same), "\(rule)")
        #expect(arrived.header("X-Trace") == "t1")
    }

    struct LocationCase: Sendable, CustomStringConvertible {
        /// The Location, `{base}` standing for the server's root and `{other}` for the same server under another name.
        var location: String
        /// Where the second request goes, below the redirecting route's own folder `{route}`.
        var lands: String
        var description: String { location }
    }

    static let locationCases: [LocationCase] = [
        LocationCase(location: "target?x", lands: "{route}/dir/sub/target?x"),
        LocationCase(location: "../target", lands: "{route}/dir/target"),
        LocationCase(location: "?q", lands: "{route}/dir/sub/r?q"),
        LocationCase(location: "./a/../b", lands: "{route}/dir/sub/b"),
        LocationCase(location: "../../../../../../x", lands: "{base}/x"),
        LocationCase(location: "{route}/absolute-path", lands: "{route}/absolute-path"),
        LocationCase(location: "{other}{route}/network-path", lands: "{other}{route}/network-path"),
        LocationCase(location: "  target  ", lands: "{route}/dir/sub/target"),
    ]

    @Test(
        "relative Locations resolve against the current URL (RFC 3986)", arguments: TransportKind.allCases,
        locationCases)
    func relativeLocations(kind: TransportKind, form: LocationCase) async throws {
        let scenario = try FaultScenario(kind)
        let root = scenario.base.absoluteString.trimmingCharacters(in: CharacterSet(charactersIn: "/"))
        let other = try Self.otherOrigin(scenario.base).absoluteString.trimmingCharacters(
            in: CharacterSet(charactersIn: "/"))
        let route = "/" + scenario.path("redirect", "302")
        func expand(_ text: String) -> String {
            text.replacingOccurrences(of: "{route}", with: route).replacingOccurrences(of: "{other}", with: other)
                .replacingOccurrences(of: "{base}", with: root)
        }
        let location = expand(form.location)
        let request = Request<Data>(
            path: scenario.path("redirect", "302", "dir", "sub", "r"), query: [QueryItem("to", location)])
        // The second hop lands on a route that answers 302 without a Location (or 404): that answer is the response.
        let response = try await scenario.client().send(accepting(request, 200..<600))
        var expected = expand(form.lands)
        if !expected.hasPrefix("http") { expected = root + expected }
        #expect(response.url.absoluteString == expected)
        #expect(response.metrics.redirectCount == 1)
    }

    @Test(
        "only http and https Locations are followed; a Location that is not a URL fails",
        arguments: TransportKind.allCases,
        ["file:///etc/hostname", "data:text/plain,hello", "ftp://127.0.0.1/x", "javascript:alert(1)", "http://["])
    func refusedLocations(kind: TransportKind, location: String) async throws {
        let scenario = try FaultScenario(kind)
        let request = Request<Data>(path: scenario.path("redirect", "302", "r"), query: [QueryItem("to", location)])
        do {
            let response = try await scenario.client().send(request)
            Issue.record("a redirect to \(location) was answered \(response.status) from \(response.url)")
        } catch {
            guard case .transport(let failure) = error else {
                Issue.record("unexpected \(error)")
                return
            }
            #expect(failure.kind == .insecureRedirect || failure.kind == .badResponse)
        }
        #expect(try await scenario.log().count == 1, "nothing was requested after the refused redirect")
    }

    @Test("a 3xx without a Location field is the response", arguments: TransportKind.allCases)
    func withoutLocation(kind: TransportKind) async throws {
        let scenario = try FaultScenario(kind)
        let request = Request<String>(path: scenario.path("redirect", "301", "r"))
        let response = try await scenario.client().send(accepting(request, 200..<400))
        #expect(response.status == 301)
        // FoundationNetworking keeps the body of a 3xx it cannot follow itself; Apple's URLSession and curl hand it up.
        #expect(response.value == "redirect 301 body" || (kind == .urlSession && response.value.isEmpty))
        #expect(response.metrics.redirectCount == 0)
    }

    /// Fetch parses a present `Location` whatever it holds, and the empty string parsed against the URL that
    /// answered is that URL: the redirect leads back to itself until the hop limit, then fails.
    @Test(
        "a 3xx with an empty Location goes to the same URL until the hop limit", arguments: TransportKind.allCases,
        [301, 302, 307])
    func emptyLocation(kind: TransportKind, status: Int) async throws {
        for location in ["", "   "] {
            let scenario = try FaultScenario(kind)
            var configuration = ClientConfiguration(baseURL: scenario.base, transport: kind.make())
            configuration.redirects = RedirectPolicy(maxRedirects: 3)
            let request = Request<String>(
                path: scenario.path("redirect", "\(status)", "r"), query: [QueryItem("to", location)])
            do {
                let response = try await APIClient(configuration: configuration).send(accepting(request, 200..<400))
                Issue.record(
                    "\(location.debugDescription) was answered \(response.status) after \(response.metrics.redirectCount) hops"
                )
            } catch {
                // FoundationNetworking fails the task on a blank Location before the delegate hears of the response.
                if kind == .urlSession, location == "   " { continue }
                guard case .transport(let failure) = error else {
                    Issue.record("\(location.debugDescription): \(error)")
                    continue
                }
                #expect(failure.kind == .tooManyRedirects, "\(location.debugDescription)")
                let log = try await scenario.log()
                #expect(log.count == 1 + 3, "the first request, then three hops to the same URL")
                #expect(Set(log.map { $0.path + "?" + $0.query }).count == 1)
            }
        }
    }

    @Test("zero redirects allowed returns the 3xx; one more than allowed fails", arguments: TransportKind.allCases)
    func limits(kind: TransportKind) async throws {
        let scenario = try FaultScenario(kind)
        var none = ClientConfiguration(baseURL: scenario.base, transport: kind.make())
        none.redirects = RedirectPolicy(maxRedirects: 0)
        let direct = try await APIClient(configuration: none).send(
            accepting(Request<Data>(path: scenario.path("redirect-loop")), 200..<400))
        #expect(direct.status == 302)

        var three = none
        three.redirects = RedirectPolicy(maxRedirects: 3)
        do {
            _ = try await APIClient(configuration: three).send(Request<Data>(path: scenario.path("redirect-loop")))
            Issue.record("an endless redirect loop was answered")
        } catch {
            guard case .transport(let failure) = error else { return #expect(Bool(false), "\(error)") }
            #expect(failure.kind == .tooManyRedirects)
        }
        #expect(try await scenario.log().count == 1 + 4, "the first request, then three hops and the one refused")
    }

    @Test(
        "a multipart body is sent again whole after a 307, and observers see every hop",
        arguments: TransportKind.allCases)
    func multipartAndObservers(kind: TransportKind) async throws {
        let scenario = try FaultScenario(kind)
        let target = scenario.base.appendingPathComponent(scenario.path("echo", "form"))
        let recorder = EventRecorder()
        let parts: [MultipartPart] = [
            .field(name: "name", value: "value"),
            .data(name: "file", data: Data(repeating: 7, count: 5000), filename: "a.bin"),
        ]
        let request = Request<Echo>(
            method: .post, path: scenario.path("redirect", "307", "upload"),
            query: [QueryItem("to", target.absoluteString)], body: .multipart(parts))
        let response = try await scenario.client(observers: [recorder]).send(request)
        #expect(response.value.method == "POST")
        #expect(response.value.header("Content-Type")?.hasPrefix("multipart/form-data; boundary=") == true)
        let log = try await scenario.log()
        #expect(log.count == 2)
        #expect(log[0].length == log[1].length && log[1].length > 5000)
        #expect(recorder.recorded.map(\.status) == [307, 200])
    }

    @Test("streams and downloads follow redirects the same way", arguments: TransportKind.allCases)
    func streamedTransfers(kind: TransportKind) async throws {
        let scenario = try FaultScenario(kind)
        let target = scenario.base.appendingPathComponent(scenario.path("echo", "streamed"))
        let request = Request<Data>(
            path: scenario.path("redirect", "308", "s"), query: [QueryItem("to", target.absoluteString)])
        let client = scenario.client()
        let stream = try await client.stream(request)
        #expect(stream.status == 200)
        let echo = try JSONDecoder().decode(Echo.self, from: try await stream.body.collect())
        #expect(echo.method == "GET")

        let file = FileManager.default.temporaryDirectory.appendingPathComponent("errand-redirect-\(UUID())")
        defer { try? FileManager.default.removeItem(at: file) }
        let download = try await client.download(request, to: file)
        #expect(download.status == 200)
        #expect(download.url.absoluteString == target.absoluteString)
        #expect(try JSONDecoder().decode(Echo.self, from: Data(contentsOf: file)).method == "GET")
    }
}

extension RedirectFollowerTests {
    @Test("a file body is read and sent again whole after a 307", arguments: TransportKind.allCases)
    func fileBodyReplayed(kind: TransportKind) async throws {
        let scenario = try FaultScenario(kind)
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("errand-307-\(UUID()).txt")
        try Data(repeating: UInt8(ascii: "x"), count: 100_000).write(to: file)
        defer { try? FileManager.default.removeItem(at: file) }
        let target = scenario.base.appendingPathComponent(scenario.path("echo", "file"))
        let request = Request<Echo>(
            method: .put, path: scenario.path("redirect", "307", "file"),
            query: [QueryItem("to", target.absoluteString)], body: .file(file, contentType: "text/plain"))
        let response = try await scenario.client().send(request)
        #expect(response.value.method == "PUT")
        #expect(response.value.body.count == 100_000)
    }
}
