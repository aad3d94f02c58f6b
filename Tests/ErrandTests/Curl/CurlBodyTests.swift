#if canImport(CCurl)
import Errand
import Foundation
import TestSupport
import Testing

@Suite("Curl transport: bodies, decoding and metrics")
struct CurlBodyTests {
    @Test(
        "decodes gzip, deflate and brotli", .enabled(if: TestServer.httpbin.isUsable),
        arguments: [("/gzip", "gzipped"), ("/deflate", "deflated"), ("/brotli", "brotli")])
    func decodesContent(path: String, flag: String) async throws {
        let response = try await CurlTest.transport().send(CurlTest.request(.httpbin, path))
        #expect(response.status == 200)
        #expect(try CurlTest.json(response.body)[flag] as? Bool == true)
        #expect(response.metrics.bytesReceived == response.body.count)
    }

    @Test("sends a body from a file", .enabled(if: TestServer.httpbin.isUsable))
    func fileBody() async throws {
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("errand-curl-\(UUID()).json")
        try Data(#"{"from":"file"}"#.utf8).write(to: file)
        defer { try? FileManager.default.removeItem(at: file) }
        let request = try CurlTest.request(
            .httpbin, "/post", method: .post, headers: ["Content-Type": "application/json"], body: .file(file))
        let echo = try CurlTest.json(try await CurlTest.transport().send(request).body)
        #expect((echo["json"] as? [String: Any])?["from"] as? String == "file")
    }

    @Test("a missing body file is a clear error before anything is sent")
    func missingBodyFile() async throws {
        let request = TransportRequest(
            method: .post, url: try #require(URL(string: "http://127.0.0.1:1/")),
            body: .file(URL(fileURLWithPath: "/nonexistent/errand-body")))
        let error = await #expect(throws: ErrandError.self) { try await CurlTest.transport().send(request) }
        guard case .invalidRequest? = error else {
            Issue.record("expected invalidRequest, got \(String(describing: error))")
            return
        }
    }

    @Test("a declared body over the limit fails before it is read", .enabled(if: TestServer.nginxHTTP.isUsable))
    func declaredBodyTooLargeInBoundedMemory() async throws {
        let request = try CurlTest.request(.nginxHTTP, "/large.bin", maxResponseBodySize: 1_000_000)
        let before = CurlTest.residentMemory()
        let error = await #expect(throws: ErrandError.self) { try await CurlTest.transport().send(request) }
        guard case .bodyTooLarge(let limit)? = error else {
            Issue.record("expected bodyTooLarge, got \(String(describing: error))")
            return
        }
        #expect(limit == 1_000_000)
        if let before, let after = CurlTest.residentMemory() {
            #expect(after - before < 64 << 20)
        }
    }

    @Test(
        "a declared body over the limit fails at its head, not after the limit's worth of bytes, however the head is read (real time)",
        .enabled(if: TestServer.httpbin.isUsable),
        arguments: [Timeouts(total: .seconds(60)), Timeouts(idle: .seconds(60), total: .seconds(60))])
    func declaredLengthDecidesEarlyRealTime(timeouts: Timeouts) async throws {
        // httpbin sends `Content-Length: 2000` at once, then a byte every 10 ms: the limit's 1,000 bytes would take
        // 10 s to arrive, so only the declared length can fail the request within a few seconds.
        let request = try CurlTest.request(
            .httpbin, "/drip?numbytes=2000&duration=20&delay=0", timeouts: timeouts, maxResponseBodySize: 1_000)
        let clock = ContinuousClock()
        let started = clock.now
        let error = await #expect(throws: ErrandError.self) { try await CurlTest.transport().send(request) }
        guard case .bodyTooLarge(let limit)? = error else {
            Issue.record("expected bodyTooLarge, got \(String(describing: error))")
            return
        }
        #expect(limit == 1_000)
        #expect(clock.now - started < .seconds(6))
    }

    @Test("a compressed body over the limit fails while it arrives", .enabled(if: TestServer.nginxHTTP.isUsable))
    func decodedBodyTooLarge() async throws {
        // nginx gzips big.json (~200 KB), so no Content-Length tells the decoded size up front.
        let request = try CurlTest.request(.nginxHTTP, "/big.json", maxResponseBodySize: 50_000)
        let error = await #expect(throws: ErrandError.self) { try await CurlTest.transport().send(request) }
        guard case .bodyTooLarge? = error else {
            Issue.record("expected bodyTooLarge, got \(String(describing: error))")
            return
        }
    }

    @Test(
        "header fields arrive in order with repeats, from the final response only, however the head is read",
        .enabled(if: TestServer.httpbin.isUsable),
        arguments: [Timeouts(total: .seconds(30)), Timeouts(idle: .seconds(30), total: .seconds(30))])
    func headerFields(timeouts: Timeouts) async throws {
        // With an idle timeout the head comes through libcurl's header callback; without, from its header store.
        let transport = CurlTest.transport()
        let direct = try await transport.send(
            CurlTest.request(
                .httpbin, "/response-headers?X-Repeat=one&X-Repeat=two&X-Spaced=a%20b", timeouts: timeouts))
        #expect(direct.headers.values(for: "x-repeat") == ["one", "two"])
        #expect(direct.headers["X-Spaced"] == "a b")
        #expect(direct.headers["Content-Type"] == "application/json")
        let redirected = try await transport.send(
            CurlTest.request(
                .httpbin, "/redirect-to?url=%2Fresponse-headers%3FX-Final%3Dyes", timeouts: timeouts))
        // The transport hands the 3xx up as it came; the client's follower decides what follows.
        #expect(redirected.status == 302)
        #expect(redirected.headers["Location"] == "/response-headers?X-Final=yes")
        #expect(redirected.metrics.redirectCount == 0)
    }

    @Test("HEAD returns the head without a body", .enabled(if: TestServer.nginxHTTP.isUsable))
    func head() async throws {
        let response = try await CurlTest.transport().send(CurlTest.request(.nginxHTTP, "/big.json", method: .head))
        #expect(response.status == 200)
        #expect(response.body.isEmpty)
    }

    @Test("metrics report timings, sizes, version and connection reuse", .enabled(if: TestServer.nginxHTTPS.isUsable))
    func metrics() async throws {
        let transport = CurlTest.transport()
        let request = try CurlTest.request(.nginxHTTPS, "/big.json")
        let first = try await transport.send(request)
        let second = try await transport.send(request)
        #expect(first.metrics.connectionReused == false)
        #expect(first.metrics.dns != nil)
        #expect(first.metrics.connect != nil)
        #expect(first.metrics.tls != nil)
        let firstByte = try #require(first.metrics.firstByte)
        #expect(firstByte <= first.metrics.total)
        #expect(first.metrics.bytesReceived == first.body.count)
        #expect(first.body.count > 150_000)
        #expect(first.metrics.httpVersion == "2")
        #expect(second.metrics.connectionReused == true)
        #expect(second.metrics.tls == nil)
        #expect(second.body == first.body)
    }

    @Test(
        "an empty POST sends Content-Length 0 and a custom method is used as given",
        .enabled(if: TestServer.httpbin.isUsable))
    func methods() async throws {
        let transport = CurlTest.transport()
        let post = try await transport.send(CurlTest.request(.httpbin, "/anything", method: .post))
        #expect(try CurlTest.json(post.body)["method"] as? String == "POST")
        let delete = try await transport.send(CurlTest.request(.httpbin, "/anything", method: .delete))
        #expect(try CurlTest.json(delete.body)["method"] as? String == "DELETE")
        let patch = try await transport.send(
            CurlTest.request(
                .httpbin, "/anything", method: .patch, headers: ["Content-Type": "application/json"],
                body: .data(Data(#"{"a":1}"#.utf8))))
        let echo = try CurlTest.json(patch.body)
        #expect(echo["method"] as? String == "PATCH")
        #expect(echo["data"] as? String == #"{"a":1}"#)
    }

    @Test("a pooled handle carries nothing over from its previous request", .enabled(if: TestServer.httpbin.isUsable))
    func reusedHandleStartsClean() async throws {
        // One at a time, so every request reuses the same pooled handle.
        let transport = CurlTest.transport()
        let head = try await transport.send(CurlTest.request(.httpbin, "/anything", method: .head))
        #expect(head.body.isEmpty)
        let put = try await transport.send(
            CurlTest.request(
                .httpbin, "/anything", method: .put, headers: ["X-Only-Once": "1"], body: .data(Data("first".utf8)),
                timeouts: Timeouts(total: .seconds(2))))
        #expect(try CurlTest.json(put.body)["data"] as? String == "first")
        let get = try await transport.send(CurlTest.request(.httpbin, "/anything", timeouts: Timeouts()))
        let echo = try CurlTest.json(get.body)
        #expect(echo["method"] as? String == "GET")
        #expect(echo["data"] as? String == "")
        #expect((echo["headers"] as? [String: Any])?["X-Only-Once"] == nil)
        let post = try await transport.send(CurlTest.request(.httpbin, "/anything", method: .post))
        #expect(try CurlTest.json(post.body)["method"] as? String == "POST")
        let after = try await transport.send(CurlTest.request(.httpbin, "/get"))
        #expect(after.status == 200)
    }

    @Test("the client's default transport on Linux is curl")
    func defaultTransport() {
        #if os(Linux)
        #expect(ClientConfiguration.defaultTransport() is CurlTransport)
        #endif
    }
}
#endif
