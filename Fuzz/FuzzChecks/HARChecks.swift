import Errand
import Foundation

/// The HAR reader's promises on arbitrary bytes, through the public API only: loading a file into a
/// ``HARReplayTransport`` never traps (it loads or throws); and every exchange replayed from a file that loads reaches
/// the caller as a live response would: header names are tokens, values hold no CR, LF or NUL, the status is a
/// three-digit code, and the body keeps the client's size limit.
enum HARChecks {
    /// The body limit the replaying client sets: small, so that recorded bodies meet it.
    static let bodyLimit = 512
    /// The most entries replayed per input.
    static let entriesReplayed = 8

    static func check(_ input: FuzzInput) -> Violations {
        let file = FuzzFiles.write(input.bytes, name: "fuzz.har")
        guard let replay = try? HARReplayTransport(file: file), let har = try? HAR(contentsOf: file) else { return [] }
        var violations: Violations = []
        for entry in har.log.entries.prefix(entriesReplayed) {
            guard let url = URL(string: entry.request.url), let scheme = url.scheme?.lowercased(),
                scheme == "http" || scheme == "https", url.host?.isEmpty == false
            else { continue }
            var configuration = ClientConfiguration(
                baseURL: url, transport: replay, maxResponseBodySize: bodyLimit, allowsInsecureHTTP: true,
                redirects: RedirectPolicy(maxRedirects: 2))
            configuration.maxErrorBodySize = bodyLimit
            let client = APIClient(configuration: configuration)
            var request = Request<Data>(
                method: HTTPMethod(rawValue: entry.request.method), url: url,
                body: entry.request.postData?.text.map { .data(Data($0.utf8)) })
            request.acceptedStatusCodes = Set(100..<1000)
            let replayed = request
            // A refusal is a clear error (the client's typed ErrandError): only what is answered has promises to keep.
            let outcome = FuzzAsync.wait { () async -> Response<Data>? in try? await client.send(replayed) }
            guard let response = outcome else { continue }
            violations += responseViolations(response, entry: entry.request.url)
        }
        return violations
    }

    private static func responseViolations(_ response: Response<Data>, entry: String) -> Violations {
        var violations: Violations = []
        for field in response.headers {
            if !HeaderRules.isToken(field.name) {
                violations.append("\(entry): a replayed header name is not a token: \(field.name.debugDescription)")
            }
            if HeaderRules.breaksALine(field.value) {
                violations.append(
                    "\(entry): replayed \(field.name) holds CR, LF or NUL: \(field.value.debugDescription)")
            }
        }
        if !(100...999).contains(response.status) {
            violations.append("\(entry): replayed status \(response.status) is not a three-digit code")
        }
        if response.value.count > bodyLimit {
            violations.append(
                "\(entry): a replayed body of \(response.value.count) bytes passed a limit of \(bodyLimit)")
        }
        return violations
    }
}

/// A scratch file per process, rewritten for each input: readers that take a file get one.
enum FuzzFiles {
    private static let folder: URL = {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent(
            "errand-fuzz-\(ProcessInfo.processInfo.processIdentifier)")
        try? FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        return folder
    }()

    /// The file `name` in the process's folder, holding exactly `bytes`.
    static func write(_ bytes: [UInt8], name: String) -> URL {
        let file = folder.appendingPathComponent(name)
        FileManager.default.createFile(atPath: file.path, contents: Data(bytes))
        return file
    }
}

/// Runs async work to its end from a synchronous caller on a thread of its own (libFuzzer's, or the replay tests'):
/// never from Swift's cooperative pool, whose threads the work needs.
enum FuzzAsync {
    private final class Box<Value: Sendable>: @unchecked Sendable {
        // Written once by the task before it signals, read once after the wait: the semaphore orders the two.
        var value: Value?
    }

    static func wait<Value: Sendable>(_ work: @escaping @Sendable () async -> Value) -> Value {
        let box = Box<Value>()
        let done = DispatchSemaphore(value: 0)
        Task.detached {
            box.value = await work()
            done.signal()
        }
        done.wait()
        return box.value!
    }
}
