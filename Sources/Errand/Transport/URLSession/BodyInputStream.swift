import Foundation
import Synchronization
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// A body read a piece at a time as it is sent: a multipart body (``MultipartReader``) or a file (``BodyFile``).
protocol StreamedBody: AnyObject {
    /// Fills `buffer` with the next bytes; returns how many, 0 at the end, or throws what stopped the body.
    func read(into buffer: UnsafeMutableRawBufferPointer) throws(ErrandError) -> Int
    /// Whether every byte was handed out and checked.
    var isFinished: Bool { get }
}

extension MultipartReader: StreamedBody {}
extension BodyFile: StreamedBody {}

/// A multipart or file body as the `InputStream` FoundationNetworking pulls a streamed request body from
/// (`httpBodyStream`): FoundationNetworking reads it on its own thread, a piece at a time, so files are never held in
/// memory whole, and Errand reads the files itself, so one that changes mid-upload is noticed.
///
/// FoundationNetworking sends a stream body chunked whatever the request's `Content-Length` says (it would send both
/// fields), so the length is not sent. A file that changes mid-upload ends the stream with an error, which
/// FoundationNetworking turns into a failed task; ``failure`` keeps the reader's typed error for the exchange to report.
///
/// The reader is used by one thread at a time: FoundationNetworking's body source calls `open`, `read` and `close` one
/// after another; ``failure`` is behind a mutex because the awaiting task reads it.
final class BodyInputStream: InputStream {
    private let reader: any StreamedBody
    private var status: Stream.Status = .notOpen
    private let stopped = Mutex<ErrandError?>(nil)

    init(_ reader: any StreamedBody) {
        self.reader = reader
        super.init(data: Data())
    }

    /// The failure that stopped the body, if one did.
    var failure: ErrandError? { stopped.withLock { $0 } }

    override func open() { status = .open }

    override func close() { status = .closed }

    override var streamStatus: Stream.Status { status }

    override var streamError: (any Error)? { failure }

    override var hasBytesAvailable: Bool { status == .open }

    override func read(_ buffer: UnsafeMutablePointer<UInt8>, maxLength length: Int) -> Int {
        guard status == .open else { return status == .atEnd ? 0 : -1 }
        do {
            let count = try reader.read(into: UnsafeMutableRawBufferPointer(start: buffer, count: length))
            if reader.isFinished && count < length { status = .atEnd }
            if count == 0 { status = .atEnd }
            return count
        } catch {
            stopped.withLock { $0 = error }
            status = .error
            return -1
        }
    }

    override func getBuffer(
        _ buffer: UnsafeMutablePointer<UnsafeMutablePointer<UInt8>?>, length: UnsafeMutablePointer<Int>
    ) -> Bool { false }

    override func schedule(in runLoop: RunLoop, forMode mode: RunLoop.Mode) {}

    override func remove(from runLoop: RunLoop, forMode mode: RunLoop.Mode) {}
}
