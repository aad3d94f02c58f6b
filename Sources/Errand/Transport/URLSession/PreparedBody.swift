import Foundation
import Synchronization
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// A file or multipart body made ready for one URLSession task: its stream set on the request, or the file to
/// upload from (the request's own, or a spooled copy of a multipart body).
struct PreparedBody {
    /// The body stream set as the request's `httpBodyStream`, when streaming.
    let stream: BodyInputStream?
    /// The file to upload from, when URLSession reads one itself.
    let file: URL?
    /// Whether ``file`` is a spooled copy, removed after the exchange.
    let isSpooled: Bool
    /// The body's length.
    let length: Int

    /// Why the body stopped mid-way, when it did (a file that changed while streaming).
    var failure: ErrandError? { stream?.failure }

    /// Opens the file, or the files of a multipart body, and sets the body up for URLSession (a multipart one as
    /// `delivery` says); `nil` for other bodies. Spooling runs on a thread of its own, never on the cooperative pool.
    ///
    /// A `.file` body is opened here in every case, so that a pipe, a device or a folder is refused before anything is
    /// sent (URLSession would read a pipe nobody writes to as an empty body). Where FoundationNetworking is, Errand then
    /// streams the file itself, so that a file that shrinks or grows stops the upload at once, naming the file
    /// (FoundationNetworking would declare the first size and wait until the total timeout); Apple's URLSession
    /// uploads from the file itself.
    static func prepare(
        _ body: TransportBody, into urlRequest: inout URLRequest, as delivery: MultipartDelivery
    ) async throws(ErrandError) -> PreparedBody? {
        switch body {
        case .none, .data:
            return nil
        case .file(let url):
            guard url.isFileURL else { throw .invalidRequest("the body file \(url) is not a file URL.") }
            let file = try BodyFile(url, role: "the body file")
            #if canImport(FoundationNetworking)
            let stream = BodyInputStream(file)
            urlRequest.httpBodyStream = stream
            return PreparedBody(stream: stream, file: nil, isSpooled: false, length: file.size)
            #else
            return PreparedBody(stream: nil, file: url, isSpooled: false, length: file.size)
            #endif
        case .multipart(let multipart):
            switch delivery {
            case .stream:
                let reader = try MultipartReader.open(multipart)
                let stream = BodyInputStream(reader)
                urlRequest.httpBodyStream = stream
                #if !canImport(FoundationNetworking)
                // Apple's URLSession sends a stream body with the length it is given; FoundationNetworking goes chunked.
                urlRequest.setValue(String(reader.contentLength), forHTTPHeaderField: "Content-Length")
                #endif
                return PreparedBody(stream: stream, file: nil, isSpooled: false, length: reader.contentLength)
            case .spooledFile:
                let (file, length) = try await spool(multipart)
                return PreparedBody(stream: nil, file: file, isSpooled: true, length: length)
            }
        case .stream(let body):
            // Spooled, because FoundationNetworking cannot wait for a stream body without blocking the queue every
            // URLSession call waits on (StreamedBodyReader), and the same path runs everywhere.
            let reader = StreamedBodyReader(try body.open())
            reader.start()
            defer { reader.close() }
            let (file, length) = try await spool(reader, cancelling: reader)
            return PreparedBody(stream: nil, file: file, isSpooled: true, length: length)
        }
    }

    /// Removes the spooled file, if there is one.
    func cleanUp() {
        if isSpooled, let file { try? FileManager.default.removeItem(at: file) }
    }

    /// Writes the body's wire form to a new temporary file, on a thread of its own; returns the file and its length.
    /// Cancelling the calling task stops the writing between two pieces and fails with ``ErrandError/cancelled``.
    private static func spool(_ body: MultipartBody) async throws(ErrandError) -> (URL, Int) {
        try await spool(MultipartOpener(body: body), cancelling: nil)
    }

    /// Writes a streamed body to a new temporary file as its sequence produces it, on a thread of its own (which
    /// waits for each chunk, so the producer and the cooperative pool never do); `cancelling` is closed on
    /// cancellation, releasing a wait.
    private static func spool(
        _ source: some SpoolSource, cancelling reader: StreamedBodyReader?
    ) async throws(ErrandError) -> (URL, Int) {
        let cancelled = Atomic<Bool>(false)
        let result: Result<(URL, Int), ErrandError> = await withTaskCancellationHandler {
            await withCheckedContinuation { continuation in
                Thread {
                    continuation.resume(
                        returning: Result { () throws(ErrandError) in
                            try spoolBlocking(source.open(), named: source.name, cancelled: cancelled)
                        })
                }.start()
            }
        } onCancel: {
            cancelled.store(true, ordering: .relaxed)
            reader?.close()
        }
        return try result.get()
    }

    private static func spoolBlocking(
        _ reader: any StreamedBody, named name: String, cancelled: borrowing Atomic<Bool>
    ) throws(ErrandError) -> (URL, Int) {
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("errand-spooled-\(UUID().uuidString)")
        guard FileManager.default.createFile(atPath: file.path, contents: nil, attributes: [.posixPermissions: 0o600]),
            let handle = FileHandle(forWritingAtPath: file.path)
        else {
            throw .invalidRequest("\(name) could not be written to \(file.path) for URLSession to upload.")
        }
        defer { try? handle.close() }
        var buffer = Data(count: 256 * 1024)
        var total = 0
        do {
            while true {
                if cancelled.load(ordering: .relaxed) { throw ErrandError.cancelled }
                let count = try buffer.withUnsafeMutableBytes { bytes throws(ErrandError) in
                    try reader.read(into: bytes)
                }
                if count == 0 { break }
                try handle.write(contentsOf: buffer.prefix(count))
                total += count
            }
        } catch let error as ErrandError {
            try? FileManager.default.removeItem(at: file)
            throw error
        } catch {
            try? FileManager.default.removeItem(at: file)
            throw .invalidRequest("\(name) could not be written to \(file.path) (\(error)).")
        }
        return (file, total)
    }
}

/// A body the spooling thread reads: opened there, and named in its errors.
protocol SpoolSource: Sendable {
    /// What the errors call the body: "the multipart body".
    var name: String { get }
    /// The reader of the body's bytes.
    func open() throws(ErrandError) -> any StreamedBody
}

/// A multipart body, whose files the spooling thread opens.
private struct MultipartOpener: SpoolSource {
    let body: MultipartBody
    var name: String { "the multipart body" }

    func open() throws(ErrandError) -> any StreamedBody { try MultipartReader.open(body) }
}

extension StreamedBodyReader: SpoolSource {
    var name: String { "the streamed body" }

    func open() throws(ErrandError) -> any StreamedBody { self }
}
