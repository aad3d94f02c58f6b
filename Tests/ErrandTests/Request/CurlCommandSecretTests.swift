@testable import Errand
import Foundation
import TestSupport
import Testing

/// The masked curl command hides every secret the redaction rules name, wherever it is in the request, and still
/// runs; a request no command can carry is refused with a sentence, in every shell.
@Suite("Curl commands: secrets and refusals")
struct CurlCommandSecretTests {
    static let pathSecret = "PATHSECRET-9f3a"
    static let formSecret = "FORMSECRET-77c1"
    static let fieldSecret = "FIELDSECRET-2b8e"
    static let headerSecret = "HEADERSECRET-51d0"

    static func client(_ recorder: RequestRecorder) -> APIClient {
        var configuration = ClientConfiguration(baseURL: recorder.url, transport: TransportKind.allCases[0].make())
        configuration.timeout = .seconds(30)
        configuration.redaction = Redaction(
            headerNames: ["X-Api-Key"], queryNames: ["api_key"], pathSegments: [pathSecret])
        return APIClient(configuration: configuration)
    }

    static let requests: [Request<Data>] = [
        Request<Data>(
            method: .post, path: "form", headers: ["X-Api-Key": headerSecret],
            body: .form([QueryItem("q", "1"), QueryItem("api_key", formSecret)])),
        Request<Data>(
            method: .post, path: "text", headers: ["X-Note": "see /keys/\(pathSecret)/x?api_key=\(formSecret)"],
            body: .text("{\"link\": \"https://example.com/v2/\(pathSecret)/a.json\"}", contentType: "application/json")),
        Request<Data>(
            method: .post, path: "bytes", body: .data(Data([0xFF, 0]) + Data(pathSecret.utf8) + Data([0xFE]))),
        Request<Data>(
            method: .post, path: "upload",
            body: .multipart([
                .field(name: "api_key", value: fieldSecret),
                .field(name: "note", value: "the key is \(pathSecret)"),
                .field(name: "nul", value: "\0\(pathSecret)"),
                .data(
                    name: "blob", data: Data([0xFF]) + Data(pathSecret.utf8), filename: "\(pathSecret).bin",
                    contentType: "application/octet-stream"),
            ])),
    ]

    @Test("no secret is in the masked command or in what it sends, in bash, zsh and dash", arguments: requests.indices)
    func masked(_ index: Int) async throws {
        let recorder = try RequestRecorder()
        let client = Self.client(recorder)
        let command = try client.curlCommand(for: Self.requests[index])
        for secret in [Self.pathSecret, Self.formSecret, Self.fieldSecret, Self.headerSecret] {
            #expect(!command.contains(secret), "\(secret) is shown in \(command)")
        }
        #expect(command.contains(Redaction.mask))
        let shown = try client.curlCommand(for: Self.requests[index], showingSecrets: true)
        #expect(shown.contains(Self.pathSecret) || shown.contains(Self.formSecret) || shown.contains(Self.headerSecret))
        for shell in CurlCommandShell.allCases where shell.isUsable {
            let outcome = try await shell.run(command)
            #expect(outcome.status == 0, "\(shell): \(outcome.errors)")
            let replayed = try #require(recorder.takeRequests().first)
            let wire =
                Data(replayed.requestLine.utf8) + Data(replayed.headers.map { $0.value }.joined().utf8)
                + replayed.body
            for secret in [Self.pathSecret, Self.formSecret, Self.fieldSecret, Self.headerSecret] {
                #expect(wire.range(of: Data(secret.utf8)) == nil, "\(shell) sent \(secret)")
            }
        }
    }

    @Test("a NUL in a multipart name or filename gets a command that says why and sends nothing")
    func refusedNUL() async throws {
        let recorder = try RequestRecorder()
        let client = Self.client(recorder)
        for part in [
            MultipartPart.field(name: "a\0b", value: "v"),
            .data(name: "f", data: Data("x".utf8), filename: "a\0.txt", contentType: "text/plain"),
        ] {
            let command = try client.curlCommand(for: Request<Data>(method: .post, path: "x", body: .multipart([part])))
            #expect(!command.utf8.contains(0))
            #expect(!command.contains("curl \\"))
            for shell in CurlCommandShell.allCases where shell.isUsable {
                let outcome = try await shell.run(command)
                #expect(outcome.status != 0, "\(shell)")
                #expect(outcome.errors.contains("contains a NUL byte"), "\(shell): \(outcome.errors)")
            }
        }
        #expect(recorder.takeRequests().isEmpty)
    }

    @Test("a header Errand would refuse to send is not printed as a command")
    func refusedHeader() {
        let request = TransportRequest(
            url: URL(string: "https://example.com/")!, headers: ["X-Note": "a\r\nX-Injected: 1"])
        let command = request.curlCommand()
        #expect(!command.contains("X-Injected"))
        #expect(!command.contains("\r"))
        #expect(command.hasPrefix("echo 'curl cannot send this request as Errand does: "))
        #expect(command.hasSuffix(" >&2\nfalse"))
    }

    @Test("words: zsh's =word quoted, empty words written, controls through printf, plain words bare")
    func words() {
        #expect(ShellWord.quoted("=ls") == "'=ls'")
        #expect(ShellWord.quoted("a=b") == "a=b")
        #expect(ShellWord.quoted("") == "''")
        #expect(ShellWord.quoted("it's") == "'it'\\''s'")
        #expect(ShellWord.quoted("a\u{1B}b\n") == "'a'\"$(printf '\\033')\"'b\n'")
        #expect(ShellWord.quoted("\u{9B}") == "\"$(printf '\\302\\233')\"")
        #expect(ShellWord.quoted("https://example.com/a%20b") == "https://example.com/a%20b")
        #expect(ShellWord.quoted("https://example.com/?x=1") == "'https://example.com/?x=1'")
    }
}
