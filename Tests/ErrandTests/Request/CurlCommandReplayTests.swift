@testable import Errand
import Foundation
import TestSupport
import Testing

/// The printed curl command against a raw-socket recorder: each command is run with bash, zsh and dash, and the
/// bytes curl sent are compared with the bytes Errand sent for the same request, on every transport.
@Suite("Curl commands replayed in every shell")
struct CurlCommandReplayTests {
    /// A file no request names: a command that makes curl read it fails the test.
    final class Sentinel {
        let folder: MultipartTests.Folder
        let url: URL
        static let contents = "SENTINEL-FILE-CONTENTS-\(UUID().uuidString)"

        init() throws {
            folder = try MultipartTests.Folder()
            url = try folder.file("not-named.txt", Data("X-Read: \(Self.contents)\n".utf8))
        }
    }

    /// A request the tests print, send and compare, named for the failure it would show.
    struct Case: Sendable, CustomStringConvertible {
        var description: String
        var make: @Sendable (_ sentinel: String, _ folder: MultipartTests.Folder) throws -> Request<Data>
    }

    static let cases: [Case] = [
        Case(description: "multipart values written in curl's -F syntax") { sentinel, folder in
            let photo = try folder.file("photo, \"1\"; a.jpg", Data([0xFF, 0xD8, 0, 1, 2, 0x0D, 0x0A]))
            return Request<Data>(
                method: .post, path: "upload",
                body: .multipart([
                    .field(name: "at", value: "@\(sentinel)"),
                    .field(name: "lt", value: "<\(sentinel)"),
                    .field(name: "options", value: "v;type=text/html;headers=@\(sentinel);filename=x.txt"),
                    .data(
                        name: "injected", data: Data("abc".utf8),
                        contentType: "text/plain;headers=X-Injected: 1;filename=evil.txt"),
                    .data(name: "reads", data: Data("abc".utf8), contentType: "text/plain; headers=@\(sentinel)"),
                    .data(
                        name: "named", data: Data([0, 1, 0x25, 0x27, 0xFF]),
                        filename: "a\"b\\c;d,e;headers=@\(sentinel)", contentType: "image/png"),
                    .file(name: "photo", url: photo, contentType: "image/jpeg"),
                    .data(name: "comma", data: Data("x".utf8), contentType: "application/x-thing; a=\"1,2\""),
                    .data(name: "plain type", data: Data("typed".utf8), contentType: "text/plain; charset=utf-8"),
                ]))
        },
        Case(description: "multipart names curl cannot write as name=") { _, _ in
            Request<Data>(
                method: .post, path: "upload",
                body: .multipart([
                    .field(name: "", value: "an empty name"),
                    .field(name: "a=b", value: "an equals sign in the name"),
                    .field(name: "quote\"d\r\nname\\", value: "quotes and line breaks"),
                    .data(name: "=", data: Data("typed".utf8), filename: "f.txt", contentType: "text/plain"),
                ]))
        },
        Case(description: "NUL and terminal controls in multipart values, names and filenames") { _, _ in
            Request<Data>(
                method: .post, path: "upload",
                body: .multipart([
                    .field(name: "nul", value: "before\0after"),
                    .field(name: "controls", value: "esc \u{1B}[2J bel \u{07} cr \r c1 \u{9B}31m rlo \u{202E}x"),
                    .field(name: "esc\u{1B}[31m", value: "red name"),
                    .data(name: "f", data: Data("x".utf8), filename: "bell\u{07}.txt", contentType: "text/plain"),
                ]))
        },
        Case(description: "text bodies shells would expand") { _, _ in
            Request<Data>(method: .put, path: "text", body: .text("=ls"))
        },
        Case(description: "a body of shell syntax and curl's @") { _, _ in
            Request<Data>(method: .post, path: "text", body: .text("@/etc/passwd ~root !! $HOME `id` \\ 'q' \"d\""))
        },
        Case(description: "terminal controls in headers and bodies") { _, _ in
            Request<Data>(
                method: .patch, path: "controls", headers: ["X-Note": "a\u{1B}]0;title\u{07}b\u{9B}c"],
                body: .text("esc \u{1B}[2J bel \u{07} cr \r lf \n tab \t"))
        },
        Case(description: "a binary body with NUL") { _, _ in
            Request<Data>(method: .post, path: "bytes", body: .data(Data([0, 0x1B, 0x0D, 0x25, 0x5C, 0x27, 0xFF, 0])))
        },
        Case(description: "a file body") { _, folder in
            let file = try folder.file("it's =a; file.bin", Data([0, 1, 2, 0x0D, 0x0A, 0xFF]))
            return Request<Data>(method: .put, path: "file", body: .file(file))
        },
    ]

    static func client(_ recorder: RequestRecorder, kind: TransportKind) -> APIClient {
        var configuration = ClientConfiguration(baseURL: recorder.url, transport: kind.make())
        configuration.timeout = .seconds(30)
        return APIClient(configuration: configuration)
    }

    @Test(
        "curl sends for the printed command what Errand sent, in bash, zsh and dash, and reads no other file",
        arguments: cases)
    func sameBytes(_ testCase: Case) async throws {
        let sentinel = try Sentinel()
        let folder = try MultipartTests.Folder()
        let recorder = try RequestRecorder()
        let request = try testCase.make(sentinel.url.path, folder)
        for kind in TransportKind.allCases {
            let client = Self.client(recorder, kind: kind)
            _ = try await client.send(request)
            let sent = try #require(recorder.takeRequests().first)
            let transportRequest = try client.makeTransportRequest(request)
            let command = try client.curlCommand(for: request)
            #expect(
                !command.unicodeScalars.contains(where: ShellWord.needsEscape),
                "a control character is in the text of \(command.debugDescription)")
            for shell in CurlCommandShell.allCases where shell.isUsable {
                let outcome = try await shell.run(command)
                #expect(outcome.status == 0, "\(shell) failed: \(outcome.errors)\n\(command)")
                let replayed = try #require(recorder.takeRequests().first, "\(shell) sent nothing")
                Self.expectSame(replayed, sent, as: transportRequest, context: "\(kind), \(shell)")
                #expect(replayed.body.range(of: Data(Sentinel.contents.utf8)) == nil, "\(shell) read a file")
                #expect(replayed.header("X-Read") == nil && replayed.header("X-Injected") == nil)
            }
        }
    }

    /// What curl sent is what Errand sent: request line, every header field of the request and no other but
    /// `Host`, `Content-Length` and a multipart type, and the same body (for multipart, the same parts).
    static func expectSame(
        _ replayed: RecordedRequest, _ sent: RecordedRequest, as request: TransportRequest, context: String
    ) {
        #expect(replayed.requestLine == sent.requestLine, "\(context)")
        var expected = Set(["host", "content-length"])
        for field in request.headers where field.name.lowercased() != "content-length" {
            expected.insert(field.name.lowercased())
            if case .multipart = request.body, field.name.lowercased() == "content-type" { continue }
            #expect(replayed.header(field.name) == field.value, "\(context): \(field.name)")
            #expect(sent.header(field.name) == field.value, "\(context): \(field.name)")
        }
        let extra = replayed.headers.map { $0.name.lowercased() }.filter { !expected.contains($0) }
        #expect(extra.isEmpty, "\(context): curl added \(extra)")
        guard case .multipart = request.body else {
            #expect(replayed.body == sent.body, "\(context): the bodies differ")
            return
        }
        let (replayedParts, sentParts) = (replayed.parts, sent.parts)
        #expect(replayedParts.count == sentParts.count, "\(context)")
        for (index, (theirs, ours)) in zip(replayedParts, sentParts).enumerated() {
            #expect(theirs.headers.sorted() == ours.headers.sorted(), "\(context): part \(index + 1)")
            #expect(theirs.content == ours.content, "\(context): part \(index + 1)")
        }
    }

    @Test("a part curl can name keeps Errand's order of header lines")
    func headerOrder() async throws {
        let recorder = try RequestRecorder()
        let request = Request<Data>(
            method: .post, path: "upload",
            body: .multipart([
                .data(name: "n", data: Data("x".utf8), filename: "a;b.txt", contentType: "text/plain; charset=utf-8")
            ]))
        let client = Self.client(recorder, kind: .allCases[0])
        _ = try await client.send(request)
        let sent = try #require(recorder.takeRequests().first)
        let outcome = try await CurlCommandShell.dash.run(try client.curlCommand(for: request))
        #expect(outcome.status == 0)
        let replayed = try #require(recorder.takeRequests().first)
        #expect(replayed.parts.map(\.headers) == sent.parts.map(\.headers))
        #expect(
            sent.parts.first?.headers
                == [
                    "Content-Disposition: form-data; name=\"n\"; filename=\"a;b.txt\"",
                    "Content-Type: text/plain; charset=utf-8",
                ])
    }
}
