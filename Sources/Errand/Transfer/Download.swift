import Foundation

/// A finished download: where the file is, what the server answered, and how much of it this call fetched.
public struct Download: Sendable {
    /// Where the complete file now is: the destination asked for.
    public var fileURL: URL
    /// The final URL, after redirects.
    public var url: URL
    /// The final response's status: 200 for a whole file, 206 for a resumed one, 416 when the partial file already
    /// held all of it.
    public var status: Int
    /// The final response's headers (secrets redacted).
    public var headers: HTTPHeaders
    /// The file's size in bytes.
    public var bytes: Int64
    /// Whether bytes a previous attempt left were kept (`resume: true` and the server honoured the range).
    public var resumed: Bool
}

extension APIClient {
    /// Downloads a resource into a file: streamed to disk, checked against its announced length, flushed, then moved
    /// onto `destination` in one atomic rename.
    ///
    /// ```swift
    /// let download = try await client.download(Request(url: isoURL), to: file, resume: true)
    /// print(download.bytes, download.resumed)
    /// ```
    ///
    /// The body goes into a hidden partial file beside the destination (`.name.download`, with `.name.download-info`
    /// recording the version it holds; a name too long for those is shortened with a hash), so the destination is
    /// either the complete new file or what it was before — also when the download fails, is cancelled or the process
    /// is killed. The partial file then stays, and `resume: true` continues it with `Range` and `If-Range`, but only
    /// when it can prove the bytes are of one version: the record must name a strong validator (a strong ETag, or a
    /// `Last-Modified` date at least a second older than the response's `Date`; never a weak ETag) and the file's
    /// length, and the 206 must repeat that validator and name exactly the bytes asked for, of that length. Any other
    /// answer — a 200, another ETag, another total, a server that ignores `If-Range` — starts the file again from
    /// zero; a 416 completes the file only when the partial file is already as long as the recorded length and the
    /// server names that length.
    ///
    /// One download per destination at a time: a download locks its partial file (`flock(2)`) until it ends, and a
    /// second download to the same destination meanwhile fails at once with ``ErrandError/transport(_:)`` saying so,
    /// leaving the first undisturbed. A full disk removes the partial file (and the error says so), so the next
    /// download in that folder has the space back; every file failure names the request's URL.
    ///
    /// The client's body-size cap does not apply (nothing is held in memory) and neither does its total timeout: a
    /// download may take as long as it needs while bytes keep arriving. ``ClientConfiguration/timeout`` is the longest
    /// time without a byte, and the request's own `timeout`, when it sets one, the total. `progress` counts the bytes
    /// a resume kept as received.
    ///
    /// A download goes through the client's middleware like every request (authentication, keys, rate and concurrency
    /// limits — its slot held until the file is complete — and observers); the cache passes it through. Retries by the
    /// client's ``RetryMiddleware`` (or ``Resilience``) policy apply before the body starts, as for every request, and
    /// once bytes are in the file by resuming: a connection lost mid-body is continued with `Range` and `If-Range`
    /// when the server named a strong validator and the length, checked as above, as often as the policy allows.
    public func download(
        _ request: Request<Data>, to destination: URL, resume: Bool = false, progress: TransferProgressStream? = nil
    ) async throws(ErrandError) -> Download {
        let url = try makeRedactedTransportRequest(request).url
        let file = DownloadFile(destination: destination, url: url)
        try file.lock()
        defer { file.release() }
        let timeouts = Timeouts(
            connect: configuration.connectTimeout, idle: configuration.timeout, total: request.timeout)
        let retries = downloadRetryPolicy(for: request)

        var machine = DownloadStateMachine()
        let partial = resume ? file.existingPartial(for: url) : nil
        var action = machine.start(partialSize: partial?.size ?? 0, saved: partial?.record.version, resume: resume)
        let reporter = DownloadProgress(progress)
        defer { reporter.finish() }
        var resumes = 0
        while true {
            switch action {
            case .none:
                throw ErrandError.transport(
                    TransportFailure(kind: .other, url: url, underlying: "the download stopped"))
            case .restart:
                file.reset()
                action = .request(range: nil, ifRange: nil)
            case .request(let range, let validator):
                let response = try await open(request, delivery: .streamed, checksStatus: false) { attempt in
                    attempt.maxResponseBodySize = .max
                    attempt.timeouts = timeouts.clamped
                    // The bytes of the file as they are, and whatever type it has: not the client's default JSON Accept.
                    if !request.headers.contains("Accept-Encoding") { attempt.headers["Accept-Encoding"] = "identity" }
                    if !request.headers.contains("Accept") { attempt.headers["Accept"] = "*/*" }
                    if let range, let validator {
                        attempt.headers["Range"] = "bytes=\(range)-"
                        attempt.headers["If-Range"] = validator.value
                    }
                }
                let next = machine.head(
                    status: response.status, contentLength: response.headers["Content-Length"].flatMap { Int64($0) },
                    contentRange: response.headers["Content-Range"],
                    accepts: request.acceptedStatusCodes.contains(response.status),
                    validator: DownloadStateMachine.Validator.of(
                        etag: response.headers["ETag"], lastModified: response.headers["Last-Modified"],
                        date: response.headers["Date"]))
                switch next {
                case .write(let offset):
                    do {
                        try await receive(
                            response, into: file, at: offset, url: response.url, machine: &machine, reporter: reporter)
                    } catch {
                        guard let retry = resumption(after: error, machine: &machine, policy: retries, done: resumes)
                        else { throw error }
                        resumes += 1
                        try await wait(retries.backoff(beforeRetry: resumes))
                        action = retry
                        continue
                    }
                    let bytes = machine.bytesWritten
                    action = machine.bodyEnded()
                    if case .commit = action {
                        try await file.commit()
                        machine.committed()
                        reporter.complete(bytes)
                        return finished(response, machine: machine, bytes: bytes, destination: destination)
                    }
                case .commit:
                    let size = partial?.size ?? 0
                    try await file.commit()
                    machine.committed()
                    reporter.complete(size)
                    return finished(response, machine: machine, bytes: size, destination: destination)
                case .fail(let failure, let discard):
                    if discard { file.discard() }
                    if case .status = failure { throw await self.failure(for: response) }
                    throw error(for: failure, url: response.url, redaction: response.redaction(configuration.redaction))
                default:
                    action = next
                }
            case .fail(let failure, let discard):
                if discard { file.discard() }
                throw error(for: failure, url: url)
            case .write, .commit:
                action = .none
            }
        }
    }

    /// Writes a response body into the partial file, with the version's record saved first.
    private func receive(
        _ response: TransportResponse, into file: DownloadFile, at offset: Int64, url: URL,
        machine: inout DownloadStateMachine, reporter: DownloadProgress
    ) async throws(ErrandError) {
        try file.saveRecord(
            DownloadFile.Record(
                validator: machine.validator, length: machine.expectedLength, url: url.absoluteString,
                name: file.destination.lastPathComponent))
        try file.position(at: offset)
        reporter.report(received: offset, total: machine.expectedLength)
        do {
            for try await chunk in response.bodyStream ?? ByteStream(buffered: response.body) {
                try file.write(chunk)
                if case .fail(let failure, let discard) = machine.received(chunk.count) {
                    if discard { file.discard() }
                    throw error(for: failure, url: response.url, redaction: response.redaction(configuration.redaction))
                }
                reporter.report(received: machine.bytesWritten, total: machine.expectedLength)
            }
        } catch {
            throw Self.redacted(ErrandError(error), response.redaction(configuration.redaction))
        }
    }

    /// The request that continues a download whose body failed with `error`, when the policy allows another attempt,
    /// the failure is one worth retrying, and the file's version has a strong ETag to resume it by; else `nil` (and
    /// the machine has failed).
    private func resumption(
        after error: ErrandError, machine: inout DownloadStateMachine, policy: RetryPolicy, done: Int
    ) -> DownloadStateMachine.Action? {
        let action = machine.interrupted(
            reason: "\(error)", canResume: done + 1 < policy.maxAttempts && policy.isRetryable(error))
        guard case .request = action else { return nil }
        return action
    }

    /// The retry policy of the client's retrying middleware, which a download's resumptions follow; none without one.
    private func downloadRetryPolicy(for request: Request<Data>) -> RetryPolicy {
        if let own = request.options.retryPolicy { return own }
        for middleware in configuration.middleware {
            if let retrying = middleware as? any RetryingMiddleware, let policy = retrying.retryPolicy {
                return policy
            }
        }
        return .never
    }

    /// Waits on the client's clock, as every backoff does.
    private func wait(_ delay: Duration) async throws(ErrandError) {
        do {
            try await configuration.clock.sleep(for: delay)
        } catch {
            throw .cancelled
        }
    }

    private func finished(
        _ response: TransportResponse, machine: DownloadStateMachine, bytes: Int64, destination: URL
    ) -> Download {
        var resumed = false
        if case .succeeded(let kept) = machine.state { resumed = kept }
        return Download(
            fileURL: destination, url: response.url, status: response.status,
            headers: response.redaction(configuration.redaction).redact(response.headers), bytes: bytes,
            resumed: resumed)
    }

    private func error(
        for failure: DownloadStateMachine.Failure, url: URL, redaction: Redaction? = nil
    ) -> ErrandError {
        let shown = URL(string: (redaction ?? configuration.redaction).redact(url))
        switch failure {
        case .status(let status):
            return .unacceptableStatus(StatusFailure(status: status, headers: [:], body: Data(), url: shown))
        case .length(let received, let expected):
            return .transport(
                TransportFailure(
                    kind: received < expected ? .connectionLost : .badResponse, url: shown,
                    underlying: "the download ended after \(received) of \(expected) bytes"))
        case .badRange(let range):
            return .transport(
                TransportFailure(
                    kind: .badResponse, url: shown,
                    underlying: "the server sent the range \(range ?? "none"), not the one asked for"))
        case .other(let reason):
            return .transport(TransportFailure(kind: .other, url: shown, underlying: reason))
        }
    }
}

/// A download's progress, reported to a stream when someone asks.
final class DownloadProgress: Sendable {
    let stream: TransferProgressStream?

    init(_ stream: TransferProgressStream?) { self.stream = stream }

    func report(received: Int64, total: Int64?) {
        stream?.report(TransferProgress(bytesReceived: received, totalBytesToReceive: total))
    }

    func complete(_ bytes: Int64) { stream?.finish(completing: TransferProgress(bytesReceived: bytes)) }

    func finish() { stream?.finish() }
}
