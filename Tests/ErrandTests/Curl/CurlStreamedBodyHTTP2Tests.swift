#if canImport(CCurl)
import Errand
import Foundation
import TestSupport
import Testing

/// Streamed request bodies over HTTP/2: nginx (TLS, HTTP/2) in front of the upload server, passing each body on as it
/// arrives. A body without a length is sent as DATA frames until END_STREAM, and nginx, seeing no length, passes it
/// on chunked; a body with one is announced with `content-length`.
@Suite(
    "Curl transport: streamed bodies over HTTP/2",
    .enabled(if: TestServer.nginxHTTPS.isUsable && TestServer.upload.isUsable), .timeLimit(.minutes(2)))
struct CurlStreamedBodyHTTP2Tests {
    func client(_ server: TestServer, path: String = "") throws -> APIClient {
        let base = try server.url().absoluteString + path
        var configuration = ClientConfiguration(
            baseURL: try #require(URL(string: base)), transport: CurlTest.transport())
        configuration.timeout = .seconds(60)
        return APIClient(configuration: configuration)
    }

    static let bytes = StreamedBodyUploadTests.bytes

    static func stream(chunkSize: Int) -> AsyncStream<Data> {
        StreamedBodyUploadTests.sequence(StreamedBodyUploadTests.chunks(of: bytes, size: chunkSize))
    }

    /// The upload server's own view of the bytes, sent to it directly from memory.
    func reference() async throws -> StreamedBodyUploadTests.Seen {
        try await client(.upload).send(
            Request<StreamedBodyUploadTests.Seen>(method: .post, path: "echo", body: .data(Self.bytes))
        ).value
    }

    @Test("a body of unknown length goes over HTTP/2 byte for byte, without a length")
    func unknownLength() async throws {
        let request = Request<StreamedBodyUploadTests.Seen>(
            method: .put, path: "echo", body: .stream(Self.stream(chunkSize: 9_999), contentType: "application/x-test"))
        let response = try await client(.nginxHTTPS, path: "/upload-proxy/").send(request)
        let expected = try await reference()
        #expect(response.metrics.httpVersion == "2")
        #expect(response.value.method == "PUT")
        #expect(response.value.body_size == Self.bytes.count)
        #expect(response.value.body_sha256 == expected.body_sha256)
        // nginx passes on a length when the request had one: none arrived, so the body went on chunked.
        #expect(response.value.header("Content-Length") == nil)
        #expect(response.value.header("Transfer-Encoding") == "chunked")
        #expect(response.value.header("Content-Type") == "application/x-test")
    }

    @Test("a body of known length goes over HTTP/2 with its content-length")
    func knownLength() async throws {
        let request = Request<StreamedBodyUploadTests.Seen>(
            method: .post, path: "echo", body: .stream(Self.stream(chunkSize: 65_536), length: Self.bytes.count))
        let response = try await client(.nginxHTTPS, path: "/upload-proxy/").send(request)
        let expected = try await reference()
        #expect(response.metrics.httpVersion == "2")
        #expect(response.value.body_size == Self.bytes.count)
        #expect(response.value.body_sha256 == expected.body_sha256)
        #expect(response.value.header("Content-Length") == String(Self.bytes.count))
    }

    @Test("an empty body of unknown length is an empty request body over HTTP/2")
    func empty() async throws {
        let request = Request<StreamedBodyUploadTests.Seen>(
            method: .post, path: "echo", body: .stream(StreamedBodyUploadTests.sequence([Data(), Data()])))
        let response = try await client(.nginxHTTPS, path: "/upload-proxy/").send(request)
        #expect(response.metrics.httpVersion == "2")
        #expect(response.value.body_size == 0)
    }
}
#endif
