import Foundation

/// The life of one download to a file as states and transitions, with no file and no socket in it: the download feeds
/// it what it finds and what the server answers, and does what each transition returns.
///
/// A resume joins bytes of two responses, so it happens only when every answer proves they are one version: the
/// partial file's record names a strong validator and the file's length, and the 206 repeats that validator and
/// names the bytes asked for of that same length. Anything else starts the file again from zero.
///
/// ```
/// idle ─start(no partial file, or no validator or length for it)─▶ requesting(from: 0)  ── request the whole file
/// idle ─start(partial file of a known version, resume)──────────▶ requesting(from: n)  ── bytes n- with If-Range
/// requesting ─head(200)──────────────────────────────────────────▶ receiving(from: 0)   ── write from zero
/// requesting(n) ─head(206: the validator, bytes n-(total-1)/total)▶ receiving(from: n)   ── append
/// requesting(n) ─head(416 */total: the validator, n == total)────▶ committing           ── commit (it was complete)
/// requesting(n) ─head(any other 206 or 416)──────────────────────▶ requesting(from: 0)  ── restart without a range
/// requesting ─head(other status)─────────────────────────────────▶ failed
/// receiving ─received(bytes)─────────────────────────────────────▶ receiving            (past the length: failed)
/// receiving ─bodyEnded───────────────────────────────────────────▶ committing           (exactly the length; else failed)
/// receiving(n) ─interrupted(resumable, version known)────────────▶ requesting(from: n)  ── bytes n- with If-Range
/// receiving ─interrupted(otherwise)──────────────────────────────▶ failed
/// committing ─committed──────────────────────────────────────────▶ succeeded
/// every state but the last two ─failed(error)────────────────────▶ failed               (the partial file stays)
/// ```
struct DownloadStateMachine: Sendable {
    enum State: Sendable, Equatable {
        case idle
        /// Waiting for the head of a request for the bytes from `offset` on; `resuming` is the version the bytes
        /// before `offset` belong to (`nil` from zero).
        case requesting(offset: Int64, restarted: Bool, resuming: Version?)
        /// Writing the body; `written` bytes are in the file, `expected` is the file's full length when known.
        case receiving(written: Int64, expected: Int64?, resumed: Bool)
        /// The file is complete: flushing and moving it into place.
        case committing(resumed: Bool)
        case succeeded(resumed: Bool)
        case failed
    }

    /// What the download does next.
    enum Action: Sendable, Equatable {
        case none
        /// Send the request, for the bytes from `offset` on with `If-Range: validator`, or for the whole file.
        case request(range: Int64?, ifRange: Validator?)
        /// Start writing the body: at `offset` (0 truncates the partial file first).
        case write(at: Int64)
        /// Empty the partial file and send the request again for the whole file.
        case restart
        /// Flush the file and move it to the destination.
        case commit
        /// End with this failure; the partial file stays for a later resume unless `discard`.
        case fail(Failure, discard: Bool)
    }

    /// Why a download fails.
    enum Failure: Sendable, Equatable {
        /// The server answered with a status the request does not accept.
        case status(Int)
        /// The body ended before or went past the announced length.
        case length(received: Int64, expected: Int64)
        /// The server's 206 names a range that does not fit the request.
        case badRange(String?)
        /// The transfer or the file failed.
        case other(String)
    }

    private(set) var state: State = .idle
    /// The version of the file being received, as its response named it.
    private(set) var validator: Validator?

    /// The download starts with `partialSize` bytes already in the partial file, of the version `saved` names.
    mutating func start(partialSize: Int64, saved: Version?, resume: Bool) -> Action {
        guard case .idle = state else { return .none }
        guard resume, partialSize > 0, let saved, partialSize <= saved.length else {
            state = .requesting(offset: 0, restarted: false, resuming: nil)
            return .request(range: nil, ifRange: nil)
        }
        state = .requesting(offset: partialSize, restarted: false, resuming: saved)
        return .request(range: partialSize, ifRange: saved.validator)
    }

    /// The final head arrived: its status, `Content-Length`, `Content-Range` and strong validator; `accepts` says
    /// whether the request accepts the status.
    mutating func head(
        status: Int, contentLength: Int64?, contentRange: String?, accepts: Bool, validator: Validator? = nil
    ) -> Action {
        guard case .requesting(let offset, let restarted, let resuming) = state else { return .none }
        self.validator = validator
        switch status {
        case 206 where offset > 0:
            guard let resuming, validator == resuming.validator, let range = ContentRange(contentRange),
                range.start == offset, range.total == resuming.length, range.end == resuming.length - 1
            else { return restartOrFail(restarted, .badRange(contentRange)) }
            state = .receiving(written: offset, expected: resuming.length, resumed: true)
            return .write(at: offset)
        case 416 where offset > 0:
            // The partial file is the whole file only if it is as long as its version, the server says that
            // version's length is all there is, and names no other version.
            guard let resuming, let range = ContentRange(contentRange), range.start == nil,
                range.total == resuming.length, offset == resuming.length,
                validator == nil || validator == resuming.validator
            else { return restartOrFail(restarted, .status(status)) }
            self.validator = resuming.validator
            state = .committing(resumed: true)
            return .commit
        case _ where accepts && status != 206 && (200...299).contains(status):
            state = .receiving(written: 0, expected: contentLength, resumed: false)
            return .write(at: 0)
        default:
            state = .failed
            return .fail(status == 206 ? .badRange(contentRange) : .status(status), discard: false)
        }
    }

    /// `count` body bytes were written.
    mutating func received(_ count: Int) -> Action {
        guard case .receiving(let written, let expected, let resumed) = state else { return .none }
        let now = written + Int64(count)
        if let expected, now > expected {
            state = .failed
            return .fail(.length(received: now, expected: expected), discard: true)
        }
        state = .receiving(written: now, expected: expected, resumed: resumed)
        return .none
    }

    /// The body ended cleanly.
    mutating func bodyEnded() -> Action {
        guard case .receiving(let written, let expected, let resumed) = state else { return .none }
        if let expected, written != expected {
            state = .failed
            return .fail(.length(received: written, expected: expected), discard: false)
        }
        state = .committing(resumed: resumed)
        return .commit
    }

    /// The body stopped short (the connection was lost, a timeout fired). With `canResume` (the retry policy allows
    /// another attempt), a strong validator naming this version and its length known, the download continues from
    /// the bytes written, checked as every resume is; otherwise it fails, the partial file kept for a later resume.
    mutating func interrupted(reason: String, canResume: Bool) -> Action {
        guard case .receiving(let written, let expected?, _) = state, canResume, written > 0, let validator
        else { return failed(reason) }
        let version = Version(validator: validator, length: expected)
        state = .requesting(offset: written, restarted: false, resuming: version)
        return .request(range: written, ifRange: validator)
    }

    /// The file is in place.
    mutating func committed() {
        guard case .committing(let resumed) = state else { return }
        state = .succeeded(resumed: resumed)
    }

    /// The transfer, the file or the task failed (cancellation included).
    mutating func failed(_ reason: String) -> Action {
        switch state {
        case .succeeded, .failed: return .none
        default:
            state = .failed
            return .fail(.other(reason), discard: false)
        }
    }

    /// Bytes of the file so far, counting those a resume kept.
    var bytesWritten: Int64 {
        if case .receiving(let written, _, _) = state { return written }
        return 0
    }

    /// The file's full length, when known.
    var expectedLength: Int64? {
        if case .receiving(_, let expected, _) = state { return expected }
        return nil
    }

    private mutating func restartOrFail(_ restarted: Bool, _ failure: Failure) -> Action {
        guard !restarted else {
            state = .failed
            return .fail(failure, discard: true)
        }
        state = .requesting(offset: 0, restarted: true, resuming: nil)
        return .restart
    }
}

/// A `Content-Range` value: `bytes start-end/total`, `bytes start-end/*` or `bytes */total`.
struct ContentRange: Sendable, Equatable {
    /// The largest position or length read; larger numbers saturate here (``ServerNumber``), far past any file.
    static let largestNumber: Int64 = 1 << 62

    var start: Int64?
    var end: Int64?
    var total: Int64?

    init?(_ text: String?) {
        guard let text else { return nil }
        let trimmed = text.trimmingCharacters(in: .whitespaces)
        guard trimmed.lowercased().hasPrefix("bytes ") else { return nil }
        let spec = trimmed.dropFirst(6).trimmingCharacters(in: .whitespaces)
        let halves = spec.split(separator: "/", maxSplits: 1, omittingEmptySubsequences: false)
        guard halves.count == 2 else { return nil }
        if halves[1] == "*" {
            total = nil
        } else {
            guard let value = Self.number(halves[1]) else { return nil }
            total = value
        }
        if halves[0] == "*" {
            guard total != nil else { return nil }
            return
        }
        let bounds = halves[0].split(separator: "-", maxSplits: 1, omittingEmptySubsequences: false)
        guard bounds.count == 2, let first = Self.number(bounds[0]), let last = Self.number(bounds[1]), last >= first
        else { return nil }
        if let total, last >= total { return nil }
        start = first
        end = last
    }

    /// Digits only (no sign, no space inside), clamped: `Int64("+5")` would take a sign RFC 9110's grammar has not.
    private static func number(_ text: Substring) -> Int64? {
        ServerNumber.digits(text.utf8, clampedTo: largestNumber)
    }
}
