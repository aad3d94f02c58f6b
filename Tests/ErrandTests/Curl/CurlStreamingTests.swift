#if canImport(CCurl)
import Errand
import Foundation
import TestSupport
import Testing

@Suite("Curl transport: streaming")
struct CurlStreamingTests {
    @Test(
        "streams a 256 MiB body in bounded memory, pausing while the reader lags",
        .enabled(if: TestServer.nginxHTTP.isUsable))
    func largeBodyInBoundedMemory() async throws {
        let transport = CurlTest.transport()
        let request = try CurlTest.request(
            .nginxHTTP, "/large.bin", timeouts: Timeouts(total: .seconds(120)), maxResponseBodySize: .max)
        let before = CurlTest.residentMemory()
        let response = try await transport.stream(request)
        #expect(response.status == 200)
        var iterator = response.body.makeAsyncIterator()
        var received = try await iterator.next()?.count ?? 0
        // A lagging reader: without backpressure the whole body would pile up in memory meanwhile.
        try await Task.sleep(for: .seconds(1))
        var peak = CurlTest.residentMemory() ?? 0
        while let chunk = try await iterator.next() {
            received += chunk.count
            if received % (16 << 20) < chunk.count { peak = max(peak, CurlTest.residentMemory() ?? 0) }
        }
        #expect(received == 256 << 20)
        if let before {
            #expect(peak - before < 48 << 20, "resident memory grew by \((peak - before) >> 20) MiB")
        }
    }

    @Test("a streamed body over HTTP/2 arrives whole", .enabled(if: TestServer.nginxHTTPS.isUsable))
    func streamsOverHTTP2() async throws {
        let transport = CurlTest.transport(streamBufferSize: 16 * 1024)
        let request = try CurlTest.request(.nginxHTTPS, "/large.bin", maxResponseBodySize: .max)
        let response = try await transport.stream(request)
        var received = 0
        for try await chunk in response.body {
            received += chunk.count
            if received >= 8 << 20 { break }
        }
        #expect(received >= 8 << 20)
        // The abandoned stream is cancelled; the transport keeps working.
        let next = try await transport.send(CurlTest.request(.nginxHTTPS, "/small.json"))
        #expect(next.status == 200)
    }

    @Test("the body-size limit ends a stream with bodyTooLarge", .enabled(if: TestServer.httpbin.isUsable))
    func streamEnforcesLimit() async throws {
        let transport = CurlTest.transport()
        // Chunked, so the limit can only be enforced while bytes arrive.
        let request = try CurlTest.request(
            .httpbin, "/stream-bytes/200000?chunk_size=10000", maxResponseBodySize: 50_000)
        let response = try await transport.stream(request)
        var received = 0
        let error = await #expect(throws: ErrandError.self) {
            for try await chunk in response.body { received += chunk.count }
        }
        guard case .bodyTooLarge(let limit)? = error else {
            Issue.record("expected bodyTooLarge, got \(String(describing: error))")
            return
        }
        #expect(limit == 50_000)
        #expect(received <= 50_000)
    }

    @Test("a stream's head reports redirects followed and the final URL", .enabled(if: TestServer.httpbin.isUsable))
    func streamFollowsRedirects() async throws {
        let client = APIClient(
            configuration: ClientConfiguration(baseURL: try TestServer.httpbin.url(), transport: CurlTest.transport()))
        let response = try await client.stream(Request<Data>(path: "redirect/2"))
        #expect(response.status == 200)
        #expect(response.url.path == "/get")
        let body = try await response.body.collect()
        #expect(try CurlTest.json(body)["url"] != nil)
    }

    @Test(
        "a compressed body streamed to a lagging reader through a small buffer arrives whole and decoded",
        .enabled(if: TestServer.nginxHTTP.isUsable))
    func compressedStreamWithBackpressure() async throws {
        // nginx gzips big.json (~200 KB of JSON); a 16 KiB buffer makes the transfer pause and resume many times.
        let transport = CurlTest.transport(streamBufferSize: 16 * 1024)
        let request = try CurlTest.request(.nginxHTTP, "/big.json")
        let buffered = try await transport.send(request)
        #expect(buffered.headers["Content-Encoding"] == "gzip")
        let response = try await transport.stream(request)
        var body = Data()
        var chunks = 0
        for try await chunk in response.body {
            body.append(chunk)
            chunks += 1
            // A reader slower than the wire, so the buffer fills while it works.
            if chunks % 4 == 0 { try await Task.sleep(for: .milliseconds(5)) }
        }
        #expect(body == buffered.body)
        #expect(body.count > 150_000)
    }
}
#endif
