@testable import Errand
import Foundation
import TestSupport
import Testing

/// The URLSession transport follows no redirect: every 3xx comes back as the response, with its status, its
/// `Location` and its body, buffered and streamed, for the one redirect policy above the transports to apply.
///
/// Run against httpbin (its `redirect-to` answers with an empty body) and the fault server (whose `redirect` fault
/// names its status in its body, and whose log shows that the target was never asked for).
@Suite("URLSession transport: every 3xx is handed up")
struct URLSessionRedirectTests {
    static let statuses = [301, 302, 303, 307, 308]
    static let methods: [HTTPMethod] = [.get, .head, .post]

    /// How the response was read: buffered or streamed, as plain values.
    enum Mode: String, CaseIterable, Sendable, CustomStringConvertible {
        case buffered, streamed
        var description: String { rawValue }
    }

    struct Answer {
        var status: Int
        var location: String?
        var body: Data
        var url: URL
    }

    static func request(_ method: HTTPMethod, _ url: URL) -> TransportRequest {
        TransportRequest(
            method: method, url: url, headers: method == .post ? ["Content-Type": "text/plain"] : [:],
            body: method == .post ? .data(Data("the request's body".utf8)) : .none,
            timeouts: Timeouts(total: .seconds(20)))
    }

    static func exchange(_ request: TransportRequest, _ mode: Mode) async throws -> Answer {
        let transport = URLSessionTransport()
        switch mode {
        case .buffered:
            let response = try await transport.send(request)
            return Answer(
                status: response.status, location: response.headers["Location"], body: response.body,
                url: response.url)
        case .streamed:
            let response = try await transport.stream(request)
            return Answer(
                status: response.status, location: response.headers["Location"],
                body: try await response.body.collect(), url: response.url)
        }
    }

    @Test(
        "httpbin's redirect-to comes back as its own status and Location, not followed",
        .enabled(if: TestServer.httpbin.isUsable), arguments: statuses, methods)
    func httpbin(status: Int, method: HTTPMethod) async throws {
        let base = try TestServer.httpbin.url()
        var components = URLComponents(url: base.appendingPathComponent("redirect-to"), resolvingAgainstBaseURL: false)!
        components.queryItems = [
            URLQueryItem(name: "url", value: "/anything/target"), URLQueryItem(name: "status_code", value: "\(status)"),
        ]
        let url = try #require(components.url)
        for mode in Mode.allCases {
            let answer = try await Self.exchange(Self.request(method, url), mode)
            #expect(answer.status == status, "\(method) \(mode)")
            #expect(answer.location == "/anything/target", "\(method) \(mode)")
            #expect(answer.url == url, "\(method) \(mode)")
            #expect(answer.body.isEmpty, "\(method) \(mode): httpbin's redirect has no body")
        }
    }

    @Test(
        "the fault server's redirect comes back with its status, Location and body; its target is never asked for",
        .enabled(if: TestServer.fault.isUsable), arguments: statuses, methods)
    func faultServer(status: Int, method: HTTPMethod) async throws {
        let scenario = try FaultScenario(.urlSession)
        let target = scenario.base.appendingPathComponent(scenario.path("ok"))
        var components = URLComponents(
            url: scenario.base.appendingPathComponent(scenario.path("redirect", "\(status)")),
            resolvingAgainstBaseURL: false)!
        components.queryItems = [URLQueryItem(name: "to", value: target.absoluteString)]
        let url = try #require(components.url)
        for mode in Mode.allCases {
            let answer = try await Self.exchange(Self.request(method, url), mode)
            #expect(answer.status == status, "\(method) \(mode)")
            #expect(answer.location == target.absoluteString, "\(method) \(mode)")
            let expected = method == .head ? "" : "redirect \(status) body"
            #expect(String(decoding: answer.body, as: UTF8.self) == expected, "\(method) \(mode)")
        }
        let log = try await scenario.log()
        #expect(log.map(\.path).allSatisfy { $0.hasPrefix("/redirect/") }, "\(log.map(\.path))")
        #expect(log.map(\.method) == Array(repeating: method.rawValue, count: Mode.allCases.count))
    }

    /// Locations FoundationNetworking cannot follow, and one that is not http at all.
    static let oddLocations: [String?] = [nil, "", "http://[::1", "file:///etc/hostname", "data:text/plain,hi"]

    @Test(
        "a 3xx whose Location is missing, empty, unparsable or not http comes back as the response",
        .enabled(if: TestServer.fault.isUsable), arguments: [302, 307], oddLocations)
    func oddLocation(status: Int, location: String?) async throws {
        let scenario = try FaultScenario(.urlSession)
        var components = URLComponents(
            url: scenario.base.appendingPathComponent(scenario.path("redirect", "\(status)")),
            resolvingAgainstBaseURL: false)!
        if let location { components.queryItems = [URLQueryItem(name: "to", value: location)] }
        let url = try #require(components.url)
        for mode in Mode.allCases {
            let answer = try await Self.exchange(Self.request(.get, url), mode)
            #expect(answer.status == status, "\(mode)")
            #expect(answer.location == location, "\(mode)")
            let body = String(decoding: answer.body, as: UTF8.self)
            #if canImport(FoundationNetworking)
            // FoundationNetworking keeps such a 3xx to itself and completes without announcing it; the transport
            // answers with the task's response, whose body FoundationNetworking never hands over.
            let lost = location.map { $0.isEmpty || $0 == "http://[::1" } ?? true
            #expect(body == (lost ? "" : "redirect \(status) body"), "\(mode)")
            #else
            #expect(body == "redirect \(status) body", "\(mode)")
            #endif
        }
        #expect(try await scenario.log().count == Mode.allCases.count)
    }
}
