#if canImport(CCurl)
import Foundation

/// A transport over libcurl's multi interface: the default on Linux, available on every platform with libcurl.
///
/// One transport owns one libcurl multi handle, driven by a dedicated thread. Every request shares its connection
/// pool (keep-alive, HTTP/2 multiplexing over TLS, a per-host connection limit) and its DNS cache, so create one
/// transport and share it, as ``shared`` does. Compared with ``URLSessionTransport`` on Linux it is about ten times
/// faster, streams bodies with backpressure, trusts a custom CA bundle, pins public keys, honours millisecond
/// timeouts and reports full transfer metrics (see docs/Transports.md).
///
/// Semantics follow the ``Transport`` contract: redirects by ``RedirectPolicy`` (never https → http, `Authorization`
/// and `Cookie` dropped on a host change, 307/308 keep method and body, 301/302 turn POST into GET, 303 into GET);
/// the body-size limit is enforced while bytes arrive (and from `Content-Length` before any arrive); a response head
/// larger than 256 KiB fails as ``TransportFailure/Kind/badResponse``; the total timeout covers the whole exchange,
/// the time spent waiting for a free connection included; cancelling the calling task removes the transfer at once
/// (from the queue for a connection, or from the wire, closing its connection).
///
/// A stream returned by ``stream(_:)`` keeps this transport alive until the stream is read to the end or dropped;
/// dropping it unread cancels the transfer.
public final class CurlTransport: Transport {
    /// A transport with the default configuration: system trust, HTTP/2 preferred.
    public static let shared = CurlTransport()

    /// The configuration every request of this transport uses.
    public let configuration: Configuration

    let loop: CurlLoop

    /// Creates a transport with its own connection pool and loop thread.
    public init(configuration: Configuration = Configuration()) {
        self.configuration = configuration
        loop = CurlLoop(configuration: configuration)
    }

    deinit {
        loop.shutdown()
    }

    /// An executor that runs tasks on this transport's loop thread, for callers that send requests one after another
    /// and want to share that thread with libcurl, as a C program does.
    ///
    /// Inside `withTaskExecutorPreference(transport.executor) { … }` a task's code runs on the loop thread: handing a
    /// request to the loop and getting the response back then wakes no thread, where a task on Swift's global pool
    /// costs two wake-ups per request (the loop's and its own). While such code runs, every transfer of the transport
    /// waits, so keep it to light work around the requests. After the transport is gone, its executor runs jobs on
    /// the global concurrent executor.
    public var executor: any TaskExecutor { loop }

    /// Performs the request and buffers the body, sized from `Content-Length` when the server sends one.
    public func send(_ request: TransportRequest) async throws -> TransportResponse {
        if Task.isCancelled { throw ErrandError.cancelled }
        let transfer = try CurlTransfer(request: request, owner: self, channel: nil)
        let response = try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { continuation in
                transfer.start(.buffered(continuation))
            }
        } onCancel: {
            transfer.cancel()
        }
        return response.transportResponse
    }

    /// Performs the request and returns when the final response's headers arrive; the body follows chunk by chunk.
    ///
    /// The transfer pauses while more than ``Configuration/streamBufferSize`` bytes wait unread and resumes as the
    /// reader catches up, so a body of any size is read in bounded memory. The body-size limit and the total timeout
    /// still apply. Cancelling the task that iterates the body cancels the transfer.
    public func stream(_ request: TransportRequest) async throws -> StreamingResponse {
        if Task.isCancelled { throw ErrandError.cancelled }
        let channel = BodyChannel(capacity: configuration.streamBufferSize)
        let transfer = try CurlTransfer(request: request, owner: self, channel: channel)
        return try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { continuation in
                transfer.start(.streaming(continuation))
            }
        } onCancel: {
            transfer.cancel()
        }
    }
}
#endif
