import Foundation
import Synchronization
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// How ``URLSessionTransport`` hands a multipart body to URLSession.
enum MultipartDelivery: Sendable {
    /// As an `InputStream` read while the body is sent: no copy, bounded memory. FoundationNetworking sends it
    /// chunked, without `Content-Length`. The default on Linux.
    case stream
    /// Written to a temporary file first, then uploaded from it with its `Content-Length` (`uploadTask(with:fromFile:)`),
    /// the file removed afterwards: bounded memory, one extra write of the body to disk. The default on Apple platforms,
    /// where a subclassed `InputStream` as a body stream depends on CFNetwork internals (as Alamofire does for large
    /// multipart bodies, Errand spools instead).
    case spooledFile

    /// ``stream`` where FoundationNetworking is, ``spooledFile`` elsewhere.
    static var platformDefault: MultipartDelivery {
        #if canImport(FoundationNetworking)
        return .stream
        #else
        return .spooledFile
        #endif
    }
}

/// A multipart body made ready for one URLSession task: its stream set on the request, or its spooled file.
struct PreparedMultipart {
    /// The body stream set as the request's `httpBodyStream`, when streaming.
    let stream: MultipartInputStream?
    /// The temporary file to upload from, when spooled.
    let file: URL?
    /// The body's length.
    let length: Int

    /// Why the body stopped mid-way, when it did (a file that changed while streaming).
    var failure: ErrandError? { stream?.failure }

    /// Opens the files of a multipart body and sets it up for URLSession as `delivery` says; `nil` for other bodies.
    /// Spooling runs on a thread of its own, never on the cooperative pool.
    static func prepare(
        _ body: TransportBody, into urlRequest: inout URLRequest, as delivery: MultipartDelivery
    ) async throws(ErrandError) -> PreparedMultipart? {
        guard case .multipart(let multipart) = body else { return nil }
        switch delivery {
        case .stream:
            let reader = try MultipartReader.open(multipart)
            let stream = MultipartInputStream(reader)
            urlRequest.httpBodyStream = stream
            #if !canImport(FoundationNetworking)
            // Apple's URLSession sends a stream body with the length it is given; FoundationNetworking goes chunked.
            urlRequest.setValue(String(reader.contentLength), forHTTPHeaderField: "Content-Length")
            #endif
            return PreparedMultipart(stream: stream, file: nil, length: reader.contentLength)
        case .spooledFile:
            let (file, length) = try await spool(multipart)
            return PreparedMultipart(stream: nil, file: file, length: length)
        }
    }

    /// Removes the spooled file, if there is one.
    func cleanUp() {
        if let file { try? FileManager.default.removeItem(at: file) }
    }

    /// Writes the body's wire form to a new temporary file, on a thread of its own; returns the file and its length.
    /// Cancelling the calling task stops the writing between two pieces and fails with ``ErrandError/cancelled``.
    private static func spool(_ body: MultipartBody) async throws(ErrandError) -> (URL, Int) {
        let cancelled = Atomic<Bool>(false)
        let result: Result<(URL, Int), ErrandError> = await withTaskCancellationHandler {
            await withCheckedContinuation { continuation in
                Thread {
                    continuation.resume(
                        returning: Result { () throws(ErrandError) in
                            try spoolBlocking(body, cancelled: cancelled)
                        })
                }.start()
            }
        } onCancel: {
            cancelled.store(true, ordering: .relaxed)
        }
        return try result.get()
    }

    private static func spoolBlocking(_ body: MultipartBody, cancelled: borrowing Atomic<Bool>) throws(ErrandError) -> (
        URL, Int
    ) {
        let reader = try MultipartReader.open(body)
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("errand-spooled-\(UUID().uuidString)")
        guard FileManager.default.createFile(atPath: file.path, contents: nil, attributes: [.posixPermissions: 0o600]),
            let handle = FileHandle(forWritingAtPath: file.path)
        else {
            throw .invalidRequest("the multipart body could not be written to \(file.path) for URLSession to upload.")
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
            throw .invalidRequest("the multipart body could not be written to \(file.path) (\(error)).")
        }
        return (file, total)
    }
}
