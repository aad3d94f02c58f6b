@testable import Errand
import Foundation
import TestSupport
import Testing

/// `curlCommand(for:)`: the printed command is run with the real `curl` through `/bin/sh`, and what the server saw is
/// compared with what Errand itself sent.
@Suite("Curl commands")
struct CurlCommandTests {
    /// httpbin's echo of a request.
    // swift-format-ignore: AlwaysUseLowerCamelCase
    // The fields are the server's JSON keys.
    struct Echo: Decodable, Sendable, Equatable {
        var args: [String: String]
        var data: String
        var headers: [String: String]
        var method: String
        var url: String
    }

    static let secret = "s3cr3t-KEY"
    static let token = "Bearer tok'en\"42"

    static func client(_ server: TestServer, kind: TransportKind = .allCases[0]) throws -> APIClient {
        var configuration = ClientConfiguration(baseURL: try server.url(), transport: kind.make())
        configuration.timeout = .seconds(30)
        configuration.redaction = Redaction(headerNames: ["X-Api-Key"], queryNames: ["api_key"], pathSegments: [secret])
        return APIClient(configuration: configuration)
    }

    /// Runs `command` with `/bin/sh` and returns what it printed; fails when it exits with an error.
    static func run(_ command: String) async throws -> Data {
        let folder = try MultipartTests.Folder()
        let output = folder.url.appendingPathComponent("out")
        let script = folder.url.appendingPathComponent("command.sh")
        try Data(("set -e\n" + command + "\n").utf8).write(to: script)
        #expect(FileManager.default.createFile(atPath: output.path, contents: nil))
        let handle = try FileHandle(forWritingTo: output)
        let process = ChildProcess()
        process.executableURL = URL(fileURLWithPath: "/bin/sh")
        process.arguments = [script.path]
        process.standardOutput = handle
        process.standardInput = FileHandle.nullDevice
        let exited = AsyncStream<Int32>.makeStream()
        process.terminationHandler = { process in
            exited.continuation.yield(process.terminationStatus)
            exited.continuation.finish()
        }
        try process.run()
        var status: Int32 = -1
        for await code in exited.stream { status = code }
        try handle.close()
        #expect(status == 0, "the command failed:\n\(command)")
        return try Data(contentsOf: output)
    }

    /// The request every test prints: secrets in a header, the query and the path; awkward header text; a body.
    static func request(body: RequestBody?) -> Request<Echo> {
        Request<Echo>(
            method: .put, segments: ["anything", "keys", secret, "x y"],
            query: [QueryItem("api_key", secret), QueryItem("q", "a+b&c 'quoted' \"double\" [1]")],
            headers: ["Authorization": token, "X-Api-Key": secret, "X-Note": "it's \"fine\" $HOME `x` \\ ;|&"],
            body: body)
    }

    @Test(
        "what curl sends for the printed command is what Errand sent: method, URL, headers, body",
        .enabled(if: TestServer.httpbin.isUsable),
        arguments: TransportKind.allCases,
        [
            RequestBody.text("line one\nline 'two' \"three\" $HOME %s \\n"),
            RequestBody.data(
                Data([0, 1, 2, 0x25, 0x5C, 0x27, 0x0D, 0x0A, 0xFF, 0x80, 0x37]), contentType: "application/x-bin"),
            RequestBody.text("@not-a-file"),
        ])
    func sameRequest(kind: TransportKind, body: RequestBody) async throws {
        let client = try Self.client(.httpbin, kind: kind)
        let request = Self.request(body: body)
        let sent = try await client.send(request).value
        let command = try client.curlCommand(for: request, showingSecrets: true)
        let seen = try JSONDecoder().decode(Echo.self, from: try await Self.run(command))
        #expect(seen.method == sent.method)
        #expect(seen.url == sent.url)
        #expect(seen.args == sent.args)
        #expect(seen.data == sent.data)
        for name in ["Authorization", "X-Api-Key", "X-Note", "Content-Type", "Content-Length", "Accept", "User-Agent"] {
            #expect(seen.headers[name] == sent.headers[name], "\(name)")
        }
    }

    @Test(
        "secrets are masked unless asked for, and the masked command still runs",
        .enabled(if: TestServer.httpbin.isUsable))
    func secretsMasked() async throws {
        let client = try Self.client(.httpbin)
        let request = Self.request(body: .text("body"))
        let command = try client.curlCommand(for: request)
        #expect(!command.contains(Self.secret))
        #expect(!command.contains("tok"))
        let seen = try JSONDecoder().decode(Echo.self, from: try await Self.run(command))
        #expect(seen.headers["Authorization"] == "***")
        #expect(seen.headers["X-Api-Key"] == "***")
        #expect(seen.args["api_key"] == "***")
        #expect(seen.url.contains("/keys/***/"))
        #expect(seen.headers["X-Note"] == "it's \"fine\" $HOME `x` \\ ;|&")
        #expect(seen.data == "body")
        let shown = try client.curlCommand(for: request, showingSecrets: true)
        #expect(shown.contains(Self.secret))
        #expect(shown.contains("tok'\\''en\"42"))
    }

    @Test("a file body is sent with --data-binary @file", .enabled(if: TestServer.upload.isUsable))
    func fileBody() async throws {
        let folder = try MultipartTests.Folder()
        let file = try folder.file("it's a file.bin", MultipartUploadTests.binary)
        let client = try Self.client(.upload)
        let request = Request<Data>(method: .post, path: "echo", body: .file(file))
        let command = try client.curlCommand(for: request)
        #expect(command.contains("--data-binary '@\(file.path.replacingOccurrences(of: "'", with: "'\\''"))'"))
        // swift-format-ignore: AlwaysUseLowerCamelCase
        // The fields are the server's JSON keys.
        struct Seen: Decodable { var body_size: Int; var body_sha256: String; var method: String }
        let sent = try JSONDecoder().decode(Seen.self, from: try await client.send(request).value)
        let seen = try JSONDecoder().decode(Seen.self, from: try await Self.run(command))
        #expect(seen.body_size == MultipartUploadTests.binary.count)
        #expect(seen.body_sha256 == sent.body_sha256)
        #expect(seen.method == "POST")
    }

    @Test("a multipart body is sent with -F, part for part", .enabled(if: TestServer.upload.isUsable))
    func multipart() async throws {
        let folder = try MultipartTests.Folder()
        let file = try folder.file("photo \"1\".jpg", MultipartUploadTests.binary)
        let client = try Self.client(.upload)
        let parts: [MultipartPart] = [
            .field(name: "title", value: "Crème; brûlée 'x' @y <z"),
            .file(name: "photo", url: file, filename: "Jalapeño \\ \"hot\".jpg", contentType: "image/jpeg"),
            .data(
                name: "blob", data: Data([0, 13, 10, 0x25, 0x27, 255]), filename: "b.bin",
                contentType: "application/x-thing; v=1"),
            .data(name: "note", data: Data("no filename".utf8), contentType: "text/plain"),
            .field(name: "quote\"d\r\nname", value: "v"),
        ]
        let request = Request<MultipartUploadTests.Seen>(method: .post, path: "upload", body: .multipart(parts))
        let command = try client.curlCommand(for: request)
        #expect(command.contains("--form-string"))
        #expect(command.contains("-F"))
        let sent = try await client.send(request).value
        let seen = try JSONDecoder().decode(MultipartUploadTests.Seen.self, from: try await Self.run(command))
        #expect(seen.parts.map(\.name) == sent.parts.map(\.name))
        #expect(seen.parts.map(\.filename) == sent.parts.map(\.filename))
        #expect(seen.parts.map(\.content_type) == sent.parts.map(\.content_type))
        #expect(seen.parts.map(\.size) == sent.parts.map(\.size))
        #expect(seen.parts.map(\.sha256) == sent.parts.map(\.sha256))
        #expect(seen.boundary != sent.boundary)
    }

    @Test("printf writes back every byte value exactly, in bash, zsh and dash")
    func printfRoundTrip() async throws {
        let every = Data((0...255).map(UInt8.init) + Array("%s %% \\ \\0 '".utf8))
        for shell in CurlCommandShell.allCases where shell.isUsable {
            let outcome = try await shell.run(ShellWord.printf(every))
            #expect(outcome.status == 0)
            #expect(outcome.output == every, "\(shell)")
        }
    }

    @Test("methods and bodiless requests print as curl expects them, curl's own headers switched off")
    func shapes() throws {
        let own = " \\\n  --header Accept: \\\n  --header User-Agent:"
        #expect(
            TransportRequest(url: URL(string: "http://[::1]:8080/a")!).curlCommand()
                == "curl \\\n  --globoff \\\n  'http://[::1]:8080/a'" + own)
        #expect(
            TransportRequest(method: .head, url: URL(string: "https://example.com/")!).curlCommand()
                == "curl \\\n  --head \\\n  https://example.com/" + own)
        #expect(
            TransportRequest(method: .delete, url: URL(string: "https://example.com/")!).curlCommand()
                == "curl \\\n  --request DELETE \\\n  https://example.com/" + own)
        let post = TransportRequest(
            method: .post, url: URL(string: "https://example.com/")!, headers: ["Accept": "*/*", "User-Agent": "x"],
            body: .data(Data("a".utf8)))
        #expect(
            post.curlCommand()
                == "curl \\\n  https://example.com/ \\\n  --header 'Accept: */*' \\\n  --header 'User-Agent: x' "
                + "\\\n  --header Expect: \\\n  --header Content-Type: \\\n  --data-binary a")
        #expect(
            TransportRequest(url: URL(string: "https://u:p@example.com/")!).curlCommand()
                == "curl \\\n  https://example.com/" + own)
    }
}
