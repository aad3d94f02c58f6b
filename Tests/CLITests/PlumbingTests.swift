import CommandLine
import Errand
import Foundation
import Synchronization
import Testing

/// Text written to one stream, shared with the console's closures.
final class StreamBuffer: Sendable {
    private let text = Mutex("")
    func append(_ more: String) { text.withLock { $0 += more } }
    var contents: String { text.withLock { $0 } }
}

/// Collects what a console prints, for assertions.
struct CapturedConsole: Sendable {
    private let out = StreamBuffer()
    private let err = StreamBuffer()
    let console: Console

    init(stderrIsTerminal: Bool = false, color: Bool = false, width: Int = 80) {
        let out = self.out, err = self.err
        console = Console(
            toolName: "sample",
            terminal: Terminal(
                stdoutIsTerminal: false, stderrIsTerminal: stderrIsTerminal, colorAllowed: color, width: width),
            out: { out.append($0) }, error: { err.append($0) })
    }

    var stdout: String { out.contents }
    var stderr: String { err.contents }
}

@Suite("JSON output")
struct JSONOutputTests {
    @Test("keys keep their declared order and absent values are null")
    func orderAndNulls() {
        let value: JSONValue = ["id": "1", "name": "Pasta", "alternateName": JSONValue(nil as String?), "tags": []]
        #expect(value.rendered(pretty: false) == #"{"id":"1","name":"Pasta","alternateName":null,"tags":[]}"#)
    }

    @Test("strings are escaped, non-ASCII kept as UTF-8")
    func escaping() {
        let value = JSONValue.string("a \"b\" \\ c\n\t\u{01} Crème / é")
        #expect(value.rendered() == #""a \"b\" \\ c\n\t\u0001 Crème / é""#)
    }

    @Test("pretty output parses back to the same document")
    func roundTrip() throws {
        let value: JSONValue = [
            "total": 2, "objects": [["objectID": 45734, "title": "Quail", "isHighlight": false, "height": 12.5]],
            "skipped": [1, 2], "empty": [:],
        ]
        let text = value.rendered()
        #expect(text.contains("\n  \"objects\": [\n"))
        let parsed = try JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any]
        #expect(parsed?["total"] as? Int == 2)
        #expect((parsed?["skipped"] as? [Int]) == [1, 2])
        #expect(text.contains("12.5"))
        #expect(JSONValue.number(.infinity).rendered() == "null")
        #expect(JSONValue.number(3).rendered() == "3")
    }
}

@Suite("Text layout")
struct TextLayoutTests {
    @Test("wrapping keeps paragraphs and never exceeds the width")
    func wraps() {
        let text =
            "Preheat the oven to 200C.\r\nBoil the pasta in salted water until al dente, then drain it well.\n\nServe."
        let wrapped = TextLayout.wrap(text, width: 30, indent: 2)
        #expect(wrapped.split(separator: "\n", omittingEmptySubsequences: false).allSatisfy { $0.count <= 30 })
        #expect(wrapped.contains("\n\n  Serve."))
        #expect(wrapped.hasPrefix("  Preheat"))
    }

    @Test("columns are aligned")
    func columns() {
        let table = TextLayout.columns([["52771", "Spicy Arrabiata Penne", "Italian"], ["1", "Tea", "British"]])
        let lines = table.split(separator: "\n")
        #expect(lines[0] == "52771  Spicy Arrabiata Penne  Italian")
        #expect(lines[1] == "1      Tea                    British")
    }
}

@Suite("Exit codes and failures")
struct FailureTests {
    @Test(
        "each ErrandError class maps to its exit code",
        arguments: [
            (ErrandError.transport(TransportFailure(kind: .cannotConnect, underlying: "refused")), ExitCode.network),
            (.transport(TransportFailure(kind: .timedOut, underlying: "")), .network),
            (.transport(TransportFailure(kind: .dnsFailure, underlying: "")), .network),
            (.transport(TransportFailure(kind: .tls, underlying: "")), .network),
            (.notCached(URL(string: "https://example.com/a")!), .network),
            (.unacceptableStatus(StatusFailure(status: 404, headers: [:], body: Data(), url: nil)), .notFound),
            (.unacceptableStatus(StatusFailure(status: 500, headers: [:], body: Data(), url: nil)), .server),
            (.unacceptableStatus(StatusFailure(status: 429, headers: [:], body: Data(), url: nil)), .server),
            (.blocked(StatusFailure(status: 403, headers: [:], body: Data(), url: nil)), .server),
            (
                .decoding(
                    DecodingFailure(
                        targetType: "X", codingPath: "", reason: "", body: Data("<html>".utf8), contentType: "text/html"
                    )), .invalidResponse
            ),
            (.bodyTooLarge(limit: 10), .invalidResponse),
            (.insecureURL(URL(string: "http://example.com")!), .usage),
            (.cancelled, .interrupted),
        ])
    func mapping(error: ErrandError, code: ExitCode) {
        let failure = Failure.classify(error)
        #expect(failure.exitCode == code)
        if case .transport(let transport) = error, [.cannotConnect, .dnsFailure].contains(transport.kind) {
            #expect(failure.message.contains("--base-url"))
        } else {
            #expect(failure.message == error.userMessage)
        }
        #expect(!failure.message.contains("ErrandError"))
    }

    @Test("a server that cannot be reached is named, with the way to use another one, in one sentence")
    func unreachableMessage() {
        let refused = Failure.classify(
            ErrandError.transport(
                TransportFailure(
                    kind: .cannotConnect, url: URL(string: "https://www.themealdb.com/api/json/v1/1/search.php?s=x"),
                    underlying: "refused")))
        #expect(
            refused.message
                == "Could not reach www.themealdb.com; check the network connection, or point to another server with --base-url."
        )
        #expect(refused.exitCode == .network)
        let noName = Failure.classify(
            ErrandError.transport(
                TransportFailure(
                    kind: .dnsFailure, url: URL(string: "http://127.0.0.1:9/x"), underlying: "")))
        #expect(noName.message.hasPrefix("Could not reach 127.0.0.1:9;"))
        #expect(
            noName.message.filter { $0 == "." }.count == 1 + 3,
            "one sentence: the only periods are the address's and the last")
    }

    @Test("an offline cache miss says it was not cached")
    func notCachedMessage() {
        let failure = Failure.classify(ErrandError.notCached(URL(string: "https://example.com/a")!))
        #expect(failure.message.contains("not cached"))
    }

    @Test("the runner prints one sentence on stderr and returns the code; help and version go to stdout")
    func runner() async {
        let captured = CapturedConsole()
        let code = await ToolMain.execute(
            sampleTool, arguments: ["random"], environment: [:], console: captured.console
        ) { _ in
            throw ErrandError.transport(TransportFailure(kind: .cannotConnect, underlying: "refused"))
        }
        #expect(code == .network)
        #expect(captured.stdout.isEmpty)
        #expect(
            captured.stderr
                == "sample: error: Could not reach the service; check the network connection, or point to another server with --base-url.\n"
        )

        let usage = CapturedConsole()
        #expect(
            await ToolMain.execute(sampleTool, arguments: ["nope"], environment: [:], console: usage.console) { _ in }
                == .usage)
        #expect(usage.stderr.contains("unknown command 'nope'") && usage.stderr.contains("--help"))

        let help = CapturedConsole()
        #expect(
            await ToolMain.execute(sampleTool, arguments: ["-h"], environment: [:], console: help.console) { _ in
                Issue.record("the command must not run for --help")
            } == .success)
        #expect(help.stdout.hasPrefix("sample 9.9.9"))
        #expect(help.stderr.isEmpty)
    }
}

@Suite("Base URL")
struct ServerAddressTests {
    let fallback = URL(string: "https://www.themealdb.com")!

    func resolve(_ flag: String?, env: [String: String] = [:]) throws(UsageError) -> URL {
        try ServerAddress.resolve(
            flag: flag, environment: env, variable: "MEALDB_BASE_URL", default: fallback, helpCommand: "mealdb")
    }

    @Test(
        "accepted roots",
        arguments: [
            ("https://example.com", "https://example.com"),
            ("https://example.com/", "https://example.com"),
            ("http://127.0.0.1:8080", "http://127.0.0.1:8080"),
            ("http://127.1.2.3", "http://127.1.2.3"),
            ("http://localhost:9", "http://localhost:9"),
            ("http://[::1]:8080", "http://[::1]:8080"),
            ("https://[2001:db8::1]", "https://[2001:db8::1]"),
            ("HTTPS://Example.com:8443", "https://Example.com:8443"),
        ])
    func accepted(text: String, expected: String) throws {
        #expect(try resolve(text).absoluteString == expected)
    }

    @Test(
        "refused roots",
        arguments: [
            ("http://example.com", "https is required"),
            ("http://127.0.0.1.evil.com", "https is required"),
            ("http://10.0.0.1", "https is required"),
            ("ftp://example.com", "must use https"),
            ("https://example.com/api", "without a path"),
            ("https://example.com?x=1", "without a path or query"),
            ("https://user:pw@example.com", "user name or password"),
            ("https://[]", "not an IPv6 address"),
            ("https://[]:443", "not an IPv6 address"),
            ("https://[x]", "not an IPv6 address"),
            ("https://[:]", "not an IPv6 address"),
            ("http://[::1%25lo]", "not an IPv6 address"),
            ("example.com", "server root"),
            ("", "server root"),
        ])
    func refused(text: String, problem: String) {
        let error = #expect(throws: UsageError.self) { try resolve(text) }
        #expect(error?.description.contains(problem) == true, "\(String(describing: error))")
        #expect(error?.description.contains("--base-url") == true)
    }

    @Test("the flag wins over the environment, which wins over the default")
    func precedence() throws {
        let env = ["MEALDB_BASE_URL": "http://127.0.0.1:1"]
        #expect(try resolve(nil).absoluteString == "https://www.themealdb.com")
        #expect(try resolve(nil, env: env).absoluteString == "http://127.0.0.1:1")
        #expect(try resolve("http://127.0.0.1:2", env: env).absoluteString == "http://127.0.0.1:2")
        let error = #expect(throws: UsageError.self) {
            try resolve(nil, env: ["MEALDB_BASE_URL": "http://example.com"])
        }
        #expect(error?.description.contains("MEALDB_BASE_URL") == true)
    }
}

@Suite("Terminal output")
struct TerminalTests {
    @Test("NO_COLOR and TERM=dumb turn color off")
    func noColor() {
        #expect(Terminal.colorAllowed(environment: [:]))
        #expect(!Terminal.colorAllowed(environment: ["NO_COLOR": "1"]))
        #expect(Terminal.colorAllowed(environment: ["NO_COLOR": ""]))
        #expect(!Terminal.colorAllowed(environment: ["TERM": "dumb"]))
        #expect(Style(enabled: false).red("x") == "x")
        #expect(TerminalText.safe(Style(enabled: true).red("x")) == "\u{1B}[31mx\u{1B}[0m")
    }

    @Test("progress is drawn only when stderr is a terminal")
    func progress() {
        let piped = CapturedConsole(stderrIsTerminal: false)
        let hidden = ProgressBar(console: piped.console, label: "objects", total: 3)
        hidden.advance()
        hidden.finish()
        #expect(piped.stderr.isEmpty)

        let terminal = CapturedConsole(stderrIsTerminal: true)
        let bar = ProgressBar(console: terminal.console, label: "objects", total: 2)
        bar.advance()
        bar.advance(skipped: true)
        bar.finish()
        #expect(terminal.stderr.contains("2/2  1 skipped"))
        #expect(terminal.stderr.hasSuffix("\r\u{1B}[2K"))
        #expect(terminal.stdout.isEmpty)
    }

    @Test("the verbose line has method, URL, status, time and cache status")
    func verboseLine() {
        let event = ExchangeEvent(
            method: .get, url: "https://www.themealdb.com/api/json/v1/***/search.php?s=pasta", requestHeaders: [:],
            status: 200, error: nil, duration: .milliseconds(12), bytesReceived: 10, bytesSent: 0, attempt: 1,
            cacheStatus: .miss, metrics: nil)
        #expect(
            VerboseLog.line(for: event)
                == "GET https://www.themealdb.com/api/json/v1/***/search.php?s=pasta 200 12ms cache=miss")
        let captured = CapturedConsole()
        VerboseLog(console: captured.console).exchangeDidFinish(event)
        #expect(captured.stderr.hasSuffix("cache=miss\n"))
        #expect(captured.stdout.isEmpty)
    }
}

@Suite("HTML gallery")
struct GalleryTests {
    @Test("writes index.html and thumbnails, escapes text, and survives a failed picture")
    func writes() async throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("gallery-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: folder) }
        let jpeg = Data([0xFF, 0xD8, 0xFF, 0xE0, 1, 2, 3])
        let gallery = Gallery(
            title: "Meals <matching> \"pasta\"", subtitle: "2 meals", generator: "sample 9.9.9",
            items: [
                GalleryItem(
                    title: "Penne & Co", subtitle: "Italian", details: ["Vegetarian"], badge: "52771",
                    imageURL: URL(string: "https://images.example/a.jpg"),
                    link: URL(string: "https://example.com/meal/52771")),
                GalleryItem(title: "Broken", imageURL: URL(string: "https://images.example/missing.jpg")),
                GalleryItem(title: "No picture"),
            ])
        let report = try await GalleryWriter().write(gallery, to: folder) { url in
            guard url.lastPathComponent == "a.jpg" else { throw URLError(.fileDoesNotExist) }
            return jpeg
        }
        #expect(report.imagesSaved == 1)
        #expect(report.imagesFailed == 1)
        let html = try String(contentsOf: folder.appendingPathComponent("index.html"), encoding: .utf8)
        #expect(html.contains("Meals &lt;matching&gt; &quot;pasta&quot;"))
        #expect(html.contains("Penne &amp; Co"))
        #expect(html.contains("src=\"thumbnails/001.jpg\""))
        #expect(html.contains("class=\"picture placeholder\""))
        #expect(!html.contains("src=\"http"), "the page must not load anything from the network")
        #expect(!html.contains("<link"))
        #expect(try Data(contentsOf: folder.appendingPathComponent("thumbnails/001.jpg")) == jpeg)
    }

    @Test("a picture that is not there is replaced by its fallback; a server error or a second miss is a placeholder")
    func fallsBack() async throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("gallery-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: folder) }
        let png = Data([0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A])
        func picture(_ name: String) -> URL? { URL(string: "https://images.example/\(name)") }
        let gallery = Gallery(
            title: "Fallbacks", generator: "sample 9.9.9",
            items: [
                GalleryItem(
                    title: "Variant missing", imageURL: picture("a.jpg/medium"), fallbackImageURL: picture("a.jpg")),
                GalleryItem(
                    title: "Offline, variant not cached", imageURL: picture("b.jpg/medium"),
                    fallbackImageURL: picture("b.jpg")),
                GalleryItem(
                    title: "Server error", imageURL: picture("c.jpg/medium"), fallbackImageURL: picture("c.jpg")),
                GalleryItem(
                    title: "Both missing", imageURL: picture("d.jpg/medium"), fallbackImageURL: picture("d.jpg")),
                GalleryItem(title: "No fallback", imageURL: picture("e.jpg/medium")),
            ])
        let asked = AskedPaths()
        let report = try await GalleryWriter(maxConcurrentDownloads: 1).write(gallery, to: folder) { url in
            asked.paths.withLock { $0.append(url.path) }
            switch url.path {
            case "/a.jpg", "/b.jpg", "/c.jpg": return png
            case "/b.jpg/medium": throw ErrandError.notCached(url)
            case "/c.jpg/medium":
                throw ErrandError.unacceptableStatus(StatusFailure(status: 502, headers: [:], body: Data(), url: url))
            default:
                throw ErrandError.unacceptableStatus(StatusFailure(status: 404, headers: [:], body: Data(), url: url))
            }
        }
        #expect(report.imagesSaved == 2)
        #expect(report.imagesFailed == 3)
        #expect(
            asked.paths.withLock { $0 } == [
                "/a.jpg/medium", "/a.jpg", "/b.jpg/medium", "/b.jpg", "/c.jpg/medium", "/d.jpg/medium", "/d.jpg",
                "/e.jpg/medium",
            ])
        let html = try String(contentsOf: folder.appendingPathComponent("index.html"), encoding: .utf8)
        #expect(html.contains("src=\"thumbnails/001.png\"") && html.contains("src=\"thumbnails/002.png\""))
    }
}

/// The paths a gallery's loader was asked for, in order.
private final class AskedPaths: Sendable {
    let paths = Mutex<[String]>([])
}
