import Errand
import Foundation
#if canImport(CCurl)
import CCurl
#endif

/// `errand-bench upload`: one multipart upload of a large file (1 GiB by default) to the project's upload server, by
/// Errand over curl, Errand over URLSession and plain libcurl (`CURLOPT_MIMEPOST` with `curl_mime_filedata`) in the
/// same run, each with its wall time, throughput and peak resident memory, and the server's view of the part checked
/// (size, and the same SHA-256 for every client).
///
///     errand-bench upload [--upload-url http://127.0.0.1:PORT] [--megabytes 1024] [--file PATH] [--clients …]
///
/// Without `--upload-url` (or `ERRAND_UPLOAD_URL`) it starts Tests/Servers/upload_server.py on a free port.
enum UploadBenchmark {
    /// What one client's upload measured.
    struct Row {
        let client: String
        let measurement: Measurement
        let seen: Seen
    }

    /// The upload server's view of the body.
    // swift-format-ignore: AlwaysUseLowerCamelCase
    // The fields are the server's JSON keys.
    struct Seen: Decodable {
        struct Part: Decodable {
            var name: String?
            var filename: String?
            var size: Int
            var sha256: String
        }

        var body_size: Int
        var content_length: String?
        var transfer_encoding: String?
        var parts: [Part]
    }

    static let clients = ["errand-curl", "raw-libcurl", "errand-urlsession"]
    /// The limit the issue sets for a 1 GiB upload.
    static let peakRSSTargetMB = 64.0

    static func run(_ arguments: [String]) async throws {
        var uploadURL = ProcessInfo.processInfo.environment["ERRAND_UPLOAD_URL"].flatMap(URL.init(string:))
        var megabytes = 1024
        var file: URL?
        var selected = clients
        var remaining = arguments[...]
        while let flag = remaining.popFirst() {
            guard let value = remaining.popFirst() else { throw BenchError("\(flag) needs a value") }
            switch flag {
            case "--upload-url": uploadURL = URL(string: value)
            case "--megabytes":
                guard let number = Int(value), number > 0 else {
                    throw BenchError("--megabytes needs a positive number")
                }
                megabytes = number
            case "--file": file = URL(fileURLWithPath: value)
            case "--clients":
                selected = value.split(separator: ",").map(String.init)
                if let unknown = selected.first(where: { !clients.contains($0) }) {
                    throw BenchError("unknown client \(unknown); known: \(clients.joined(separator: ", "))")
                }
            default: throw BenchError("unknown argument \(flag) for errand-bench upload")
            }
        }
        let server = try uploadURL.map { UploadServer(url: $0) } ?? UploadServer.start()
        defer { server.stop() }
        let source = try file ?? makeFile(megabytes: megabytes)
        defer { if file == nil { try? FileManager.default.removeItem(at: source) } }
        let size = try FileManager.default.attributesOfItem(atPath: source.path)[.size] as? Int ?? 0
        log("errand-bench upload: \(size) bytes from \(source.path) to \(server.url.absoluteString)")

        let target = server.url.appendingPathComponent("upload")
        var rows: [Row] = []
        for client in selected {
            let row = try await Task.detached { try await upload(source, to: target, with: client) }.value
            log(
                "  \(client): \(String(format: "%.2f", row.measurement.seconds)) s, peak RSS \(String(format: "%.1f", row.measurement.peakRSSMegabytes)) MB"
            )
            guard row.seen.parts.count == 1, row.seen.parts[0].size == size else {
                throw BenchError(
                    "\(client): the server saw \(row.seen.parts.map(\.size)) bytes in its parts, not one part of \(size)"
                )
            }
            rows.append(row)
        }
        if Set(rows.map { $0.seen.parts[0].sha256 }).count > 1 {
            throw BenchError("the clients' uploads differ: \(rows.map { "\($0.client) \($0.seen.parts[0].sha256)" })")
        }
        print(table(rows, bytes: size))
    }

    private static func upload(_ file: URL, to url: URL, with client: String) async throws -> Row {
        var seen: Seen?
        let measurement: Measurement
        switch client {
        case "raw-libcurl":
            #if canImport(CCurl)
            measurement = try Measurement.ofBlocking { seen = try rawLibcurlUpload(file, to: url) }
            #else
            throw BenchError("raw-libcurl needs libcurl")
            #endif
        default:
            let transport: any Transport
            #if canImport(CCurl)
            transport = client == "errand-curl" ? CurlTransport() : URLSessionTransport()
            #else
            transport = URLSessionTransport()
            #endif
            var configuration = ClientConfiguration(baseURL: url.deletingLastPathComponent(), transport: transport)
            configuration.timeout = .seconds(600)
            let client = APIClient(configuration: configuration)
            let request = Request<Data>(
                method: .post, path: "upload",
                body: .multipart([.file(name: "file", url: file, contentType: "application/octet-stream")]))
            measurement = try await Measurement.of {
                seen = try JSONDecoder().decode(Seen.self, from: try await client.send(request).value)
            }
        }
        guard let seen else { throw BenchError("\(client): no answer") }
        return Row(client: client, measurement: measurement, seen: seen)
    }

    #if canImport(CCurl)
    /// libcurl's own multipart upload of the file: `curl_mime_filedata` streams it through libcurl's buffer.
    private static func rawLibcurlUpload(_ file: URL, to url: URL) throws -> Seen {
        curl_global_init(Int(CURL_GLOBAL_ALL))
        guard let easy = curl_easy_init() else { throw BenchError("libcurl: no easy handle") }
        defer { curl_easy_cleanup(easy) }
        guard let mime = curl_mime_init(easy) else { throw BenchError("libcurl: no mime handle") }
        defer { curl_mime_free(mime) }
        let part = curl_mime_addpart(mime)
        curl_mime_name(part, "file")
        curl_mime_type(part, "application/octet-stream")
        guard curl_mime_filedata(part, file.path) == CURLE_OK else {
            throw BenchError("libcurl: cannot read \(file.path)")
        }
        _ = errand_curl_easy_setopt_string(easy, CURLOPT_URL, url.absoluteString)
        _ = errand_curl_easy_setopt_long(easy, CURLOPT_NOSIGNAL, 1)
        _ = errand_curl_easy_setopt_pointer(easy, CURLOPT_MIMEPOST, UnsafeMutableRawPointer(mime))
        let response = ResponseBuffer()
        _ = errand_curl_easy_setopt_data_callback(easy, CURLOPT_WRITEFUNCTION) { buffer, size, count, context in
            guard let buffer, let context else { return 0 }
            let response = Unmanaged<ResponseBuffer>.fromOpaque(context).takeUnretainedValue()
            response.data.append(UnsafeRawBufferPointer(start: buffer, count: size * count).bindMemory(to: UInt8.self))
            return size * count
        }
        _ = errand_curl_easy_setopt_pointer(easy, CURLOPT_WRITEDATA, Unmanaged.passUnretained(response).toOpaque())
        let code = curl_easy_perform(easy)
        guard code == CURLE_OK else { throw BenchError("libcurl: \(String(cString: curl_easy_strerror(code)))") }
        return try JSONDecoder().decode(Seen.self, from: response.data)
    }

    private final class ResponseBuffer {
        var data = Data()
    }
    #endif

    /// A file of `megabytes` MiB of varied bytes (not zeros, so nothing along the way can take a shortcut).
    private static func makeFile(megabytes: Int) throws -> URL {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent(
            "errand-upload-\(UUID().uuidString).bin")
        guard FileManager.default.createFile(atPath: url.path, contents: nil) else {
            throw BenchError("cannot create \(url.path)")
        }
        let handle = try FileHandle(forWritingTo: url)
        defer { try? handle.close() }
        var block = Data(count: 1 << 20)
        var state: UInt64 = 0x9E37_79B9_7F4A_7C15
        block.withUnsafeMutableBytes { bytes in
            for index in bytes.indices {
                state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
                bytes[index] = UInt8(truncatingIfNeeded: state >> 56)
            }
        }
        for megabyte in 0..<megabytes {
            block[0] = UInt8(truncatingIfNeeded: megabyte)
            try handle.write(contentsOf: block)
        }
        return url
    }

    private static func table(_ rows: [Row], bytes: Int) -> String {
        var lines = [
            "| client | size | seconds | MB/s | client CPU s | peak RSS MB | target | sent as |",
            "| --- | --- | --- | --- | --- | --- | --- | --- |",
        ]
        for row in rows {
            let megabytes = Double(bytes) / 1_048_576
            let framing = row.seen.content_length.map { "Content-Length \($0)" } ?? row.seen.transfer_encoding ?? "?"
            let verdict =
                row.measurement.peakRSSMegabytes < peakRSSTargetMB
                ? "< \(Int(peakRSSTargetMB)) ✓" : "< \(Int(peakRSSTargetMB)) ✗"
            lines.append(
                "| \(row.client) | \(Int(megabytes)) MiB | \(String(format: "%.2f", row.measurement.seconds)) | "
                    + "\(String(format: "%.0f", megabytes / row.measurement.seconds)) | "
                    + "\(String(format: "%.2f", row.measurement.cpuSeconds)) | "
                    + "\(String(format: "%.1f", row.measurement.peakRSSMegabytes)) | \(verdict) | \(framing) |")
        }
        return lines.joined(separator: "\n")
    }
}

/// The upload server the benchmark sends to: one given by URL, or Tests/Servers/upload_server.py started on a free port.
final class UploadServer {
    let url: URL
    private let process: Process?

    init(url: URL) {
        self.url = url
        process = nil
    }

    private init(url: URL, process: Process) {
        self.url = url
        self.process = process
    }

    static func start() throws -> UploadServer {
        let script = BenchServer.packageRoot.appendingPathComponent("Tests/Servers/upload_server.py")
        let process = Process()
        let output = Pipe()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/python3")
        process.arguments = [script.path, "--port", "0"]
        process.standardOutput = output
        try process.run()
        // The server names its port on its first line, once it listens.
        var text = ""
        while !text.contains("\n") {
            let chunk = output.fileHandleForReading.availableData
            if chunk.isEmpty { break }
            text += String(decoding: chunk, as: UTF8.self)
        }
        guard let address = text.split(separator: " ").last.map({ $0.trimmingCharacters(in: .whitespacesAndNewlines) }),
            let url = URL(string: address)
        else {
            process.terminate()
            throw BenchError("the upload server did not start: \(text)")
        }
        return UploadServer(url: url, process: process)
    }

    func stop() {
        guard let process else { return }
        process.terminate()
        process.waitUntilExit()
    }
}
