@testable import Errand
import Foundation
import Testing

@Suite("Downloads: the state machine")
struct DownloadStateMachineTests {
    let etag = DownloadStateMachine.Validator(value: "\"abc\"", isETag: true)

    /// The version a partial file of a `length`-byte file holds, by the strong ETag `etag`.
    func saved(_ length: Int64) -> DownloadStateMachine.Version { .init(validator: etag, length: length) }

    @Test("without a usable partial file the whole file is asked for")
    func fresh() {
        var machine = DownloadStateMachine()
        #expect(machine.start(partialSize: 0, saved: saved(10), resume: true) == .request(range: nil, ifRange: nil))
        var noVersion = DownloadStateMachine()
        #expect(noVersion.start(partialSize: 10, saved: nil, resume: true) == .request(range: nil, ifRange: nil))
        var notResuming = DownloadStateMachine()
        #expect(
            notResuming.start(partialSize: 10, saved: saved(20), resume: false) == .request(range: nil, ifRange: nil))
        // More bytes than the version has: not a prefix of it.
        var tooLong = DownloadStateMachine()
        #expect(tooLong.start(partialSize: 30, saved: saved(20), resume: true) == .request(range: nil, ifRange: nil))
    }

    @Test("a partial file is continued with Range and If-Range; 206 appends; the announced total ends it")
    func resumes() {
        var machine = DownloadStateMachine()
        #expect(machine.start(partialSize: 100, saved: saved(150), resume: true) == .request(range: 100, ifRange: etag))
        #expect(
            machine.head(
                status: 206, contentLength: 50, contentRange: "bytes 100-149/150", accepts: true, validator: etag)
                == .write(at: 100))
        #expect(machine.received(30) == .none)
        #expect(machine.bytesWritten == 130)
        #expect(machine.received(20) == .none)
        #expect(machine.bodyEnded() == .commit)
        machine.committed()
        #expect(machine.state == .succeeded(resumed: true))
    }

    @Test("a 200 to a range request (range ignored, or the file changed) restarts from zero")
    func restartsOn200() {
        var machine = DownloadStateMachine()
        _ = machine.start(partialSize: 100, saved: saved(500), resume: true)
        #expect(machine.head(status: 200, contentLength: 500, contentRange: nil, accepts: true) == .write(at: 0))
        #expect(machine.bytesWritten == 0)
        _ = machine.received(500)
        #expect(machine.bodyEnded() == .commit)
        machine.committed()
        #expect(machine.state == .succeeded(resumed: false))
    }

    @Test("416 with the whole file present completes; another 416 restarts once, then fails")
    func rangeNotSatisfiable() {
        var complete = DownloadStateMachine()
        _ = complete.start(partialSize: 150, saved: saved(150), resume: true)
        #expect(complete.head(status: 416, contentLength: nil, contentRange: "bytes */150", accepts: false) == .commit)
        var longer = DownloadStateMachine()
        _ = longer.start(partialSize: 200, saved: saved(200), resume: true)
        #expect(longer.head(status: 416, contentLength: nil, contentRange: "bytes */150", accepts: false) == .restart)
        #expect(longer.state == .requesting(offset: 0, restarted: true, resuming: nil))
        #expect(
            longer.head(status: 416, contentLength: nil, contentRange: "bytes */150", accepts: false)
                == .fail(.status(416), discard: false))
    }

    @Test("a 206 for another range restarts without a range")
    func wrongRange() {
        var machine = DownloadStateMachine()
        _ = machine.start(partialSize: 100, saved: saved(150), resume: true)
        #expect(
            machine.head(status: 206, contentLength: 50, contentRange: "bytes 0-49/150", accepts: true, validator: etag)
                == .restart)
    }

    @Test("a short body fails and keeps the partial file; a long one fails and discards it")
    func lengths() {
        var short = DownloadStateMachine()
        _ = short.start(partialSize: 0, saved: nil, resume: false)
        _ = short.head(status: 200, contentLength: 100, contentRange: nil, accepts: true)
        _ = short.received(60)
        #expect(short.bodyEnded() == .fail(.length(received: 60, expected: 100), discard: false))
        var long = DownloadStateMachine()
        _ = long.start(partialSize: 0, saved: nil, resume: false)
        _ = long.head(status: 200, contentLength: 100, contentRange: nil, accepts: true)
        #expect(long.received(101) == .fail(.length(received: 101, expected: 100), discard: true))
    }

    @Test("a status the request does not accept fails without touching the partial file; unknown length is accepted")
    func statuses() {
        var missing = DownloadStateMachine()
        _ = missing.start(partialSize: 100, saved: saved(150), resume: true)
        #expect(
            missing.head(status: 404, contentLength: 9, contentRange: nil, accepts: false)
                == .fail(.status(404), discard: false))
        var chunked = DownloadStateMachine()
        _ = chunked.start(partialSize: 0, saved: nil, resume: false)
        _ = chunked.head(status: 200, contentLength: nil, contentRange: nil, accepts: true)
        _ = chunked.received(1234)
        #expect(chunked.bodyEnded() == .commit)
        #expect(chunked.failed("late") == .fail(.other("late"), discard: false))
    }

    @Test("a failure mid-body ends the machine; later events do nothing")
    func failure() {
        var machine = DownloadStateMachine()
        _ = machine.start(partialSize: 0, saved: nil, resume: false)
        _ = machine.head(status: 200, contentLength: 10, contentRange: nil, accepts: true)
        #expect(machine.failed("connection lost") == .fail(.other("connection lost"), discard: false))
        #expect(machine.received(5) == .none)
        #expect(machine.bodyEnded() == .none)
        #expect(machine.failed("again") == .none)
    }

    @Test(
        "Content-Range forms",
        arguments: [
            ("bytes 0-9/10", ContentRange(start: 0, end: 9, total: 10)),
            ("bytes 5-9/*", ContentRange(start: 5, end: 9, total: nil)),
            ("bytes */42", ContentRange(start: nil, end: nil, total: 42)),
            ("bytes 9-5/10", nil), ("bytes 0-10/10", nil), ("items 0-1/2", nil), ("bytes */*", nil), ("bytes 1-2", nil),
            // Digits only, as RFC 9110's grammar has them; numbers past any file saturate instead of failing.
            ("bytes +0-9/10", nil), ("bytes 0-+9/10", nil), ("bytes 0-9/+10", nil), ("bytes 0-9/-10", nil),
            ("bytes 0- 9/10", nil),
            ("bytes 0-9/99999999999999999999999", ContentRange(start: 0, end: 9, total: ContentRange.largestNumber)),
        ] as [(String, ContentRange?)])
    func contentRange(text: String, expected: ContentRange?) {
        #expect(ContentRange(text) == expected)
    }

}

extension ContentRange {
    init(start: Int64?, end: Int64?, total: Int64?) {
        self.init("bytes */1")!
        self.start = start
        self.end = end
        self.total = total
    }
}
