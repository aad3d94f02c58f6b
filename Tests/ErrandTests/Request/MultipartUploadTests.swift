@testable import Errand
import Foundation
import TestSupport
import Testing

/// Multipart uploads on the wire, against the upload server's view of every part. Runs once per ``TransportKind``.
@Suite("Multipart uploads", .enabled(if: TestServer.upload.isUsable))
struct MultipartUploadTests {
    /// What the upload server saw of a body.
    // swift-format-ignore: AlwaysUseLowerCamelCase
    // The fields are the server's JSON keys.
    struct Seen: Decodable, Sendable {
        struct Part: Decodable, Sendable {
            var name: String?
            var filename: String?
            var content_type: String?
            var size: Int
            var sha256: String
            var content_base64: String?
        }

        var content_type: String
        var content_length: String?
        var transfer_encoding: String?
        var boundary: String
        var body_size: Int
        var body_base64: String?
        var preamble_size: Int
        var epilogue_size: Int
        var parts: [Part]
    }

    /// A transport and the way it hands over multipart bodies: every ``TransportKind``, and URLSession spooling to a
    /// file (Apple platforms' way, tried here on Linux).
    struct Uploader: Sendable, CustomStringConvertible {
        let kind: TransportKind
        let spooled: Bool

        static var all: [Uploader] {
            TransportKind.allCases.map { Uploader(kind: $0, spooled: false) } + [
                Uploader(kind: .urlSession, spooled: true)
            ]
        }

        func make() -> any Transport {
            spooled ? URLSessionTransport(configuration: .default, multipartDelivery: .spooledFile) : kind.make()
        }

        /// Whether the body goes with a `Content-Length` (FoundationNetworking sends a stream body chunked).
        var sendsLength: Bool {
            #if canImport(FoundationNetworking)
            return kind != .urlSession || spooled
            #else
            return true
            #endif
        }

        var description: String { spooled ? "\(kind)-spooled" : kind.description }
    }

    func client(_ uploader: Uploader) throws -> APIClient {
        var configuration = ClientConfiguration(baseURL: try TestServer.upload.url(), transport: uploader.make())
        configuration.timeout = .seconds(30)
        return APIClient(configuration: configuration)
    }

    /// Bytes no text encoding would keep: every byte value, several times over.
    static let binary = Data((0..<300_000).map { UInt8(truncatingIfNeeded: $0 &* 7 &+ $0 >> 8) })

    @Test("the server sees every part byte for byte, CRLF and boundary-like text included", arguments: Uploader.all)
    func partsArriveExactly(uploader: Uploader) async throws {
        let folder = try MultipartTests.Folder()
        let file = try folder.file("photo.jpg", Self.binary)
        let tricky = Data("line one\r\n--errand-\r\n--\r\n\r\n--errand-AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA--\r\nend".utf8)
        let parts: [MultipartPart] = [
            .field(name: "title", value: "Crème brûlée, 日本"),
            .data(name: "tricky", data: tricky, filename: "tricky.txt", contentType: "text/plain; charset=utf-8"),
            .file(name: "photo", url: file, filename: "Jalapeño \"hot\".jpg", contentType: "image/jpeg"),
            .field(name: "quote\"name", value: ""),
        ]
        let request = Request<Seen>(
            method: .post, path: "upload", query: [QueryItem("contents", "1")], body: .multipart(parts))
        let seen = try await client(uploader).send(request).value

        // What Errand meant to send, rendered by the same reader the transports use.
        let built = try client(uploader).makeTransportRequest(request)
        guard case .multipart(let body) = built.body else {
            Issue.record("not a multipart body")
            return
        }
        let expected = try MultipartTests.readAll(try MultipartReader.open(body))
        #expect(seen.body_base64.flatMap { Data(base64Encoded: $0) } == expected)
        #expect(seen.boundary == body.boundary)
        #expect(seen.preamble_size == 0 && seen.epilogue_size == 2)

        #expect(seen.parts.map(\.name) == ["title", "tricky", "photo", "quote\"name"])
        #expect(seen.parts.map(\.filename) == [nil, "tricky.txt", "Jalapeño \"hot\".jpg", nil])
        #expect(seen.parts.map(\.content_type) == [nil, "text/plain; charset=utf-8", "image/jpeg", nil])
        let contents = [Data("Crème brûlée, 日本".utf8), tricky, Self.binary, Data()]
        #expect(seen.parts.map(\.size) == contents.map(\.count))
        #expect(seen.parts.map { $0.content_base64.flatMap { Data(base64Encoded: $0) } } == contents)
        #expect(seen.body_size == expected.count)
        if uploader.sendsLength {
            #expect(seen.content_length == String(expected.count))
        } else {
            // FoundationNetworking sends every stream body chunked (docs/Transports.md).
            #expect(seen.transfer_encoding == "chunked")
        }
    }

    @Test("PUT sends a multipart body too, its boundary's Content-Type over the request's", arguments: Uploader.all)
    func put(uploader: Uploader) async throws {
        let request = Request<Seen>(
            method: .put, path: "upload", headers: ["Content-Type": "multipart/form-data"],
            body: .multipart([.field(name: "a", value: "b")]))
        let seen = try await client(uploader).send(request).value
        #expect(seen.parts.count == 1 && seen.parts[0].size == 1)
        #expect(seen.content_type.hasPrefix("multipart/form-data; boundary=errand-"))
    }

    @Test("a missing file fails with a typed error naming it, before anything is sent", arguments: Uploader.all)
    func missingFile(uploader: Uploader) async throws {
        let missing = URL(fileURLWithPath: "/nonexistent/errand-\(UUID().uuidString).bin")
        let request = Request<Data>(method: .post, path: "upload", body: .multipart([.file(name: "f", url: missing)]))
        do {
            _ = try await client(uploader).send(request)
            Issue.record("a missing file must fail")
        } catch {
            guard case .invalidRequest(let message) = error as? ErrandError else {
                Issue.record("\(error)")
                return
            }
            #expect(message == "the multipart file \(missing.path) does not exist.")
        }
    }

    @Test(
        "a file that turns out to hold the boundary stops the upload mid-way, without a hang", arguments: Uploader.all)
    func stoppedMidUpload(uploader: Uploader) async throws {
        let folder = try MultipartTests.Folder()
        var contents = Data(repeating: 0x61, count: 2_000_000)
        contents.append(Data("--FIXEDBOUNDARY".utf8))
        let file = try folder.file("clash.bin", contents)
        let body = MultipartBody(parts: [.file(name: "f", url: file)], boundary: "FIXEDBOUNDARY")
        let transport = uploader.make()
        let url = try TestServer.upload.url().appendingPathComponent("upload")
        let request = TransportRequest(
            method: .post, url: url, headers: ["Content-Type": body.contentType], body: .multipart(body),
            timeouts: Timeouts(total: .seconds(30)))
        do {
            let response = try await transport.send(request)
            Issue.record("the upload must fail, not answer \(response.status)")
        } catch {
            guard case .invalidRequest(let message) = error as? ErrandError else {
                Issue.record("\(error)")
                return
            }
            #expect(message.contains("contains the body's boundary"))
        }
        // The transport is still usable afterwards.
        let next = TransportRequest(
            method: .post, url: url, headers: ["Content-Type": "multipart/form-data; boundary=B"],
            body: .multipart(MultipartBody(parts: [.field(name: "x", value: "y")], boundary: "B")))
        #expect(try await transport.send(next).status == 200)
    }
}
