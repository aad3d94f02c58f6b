@testable import Errand
import Foundation
import Testing

/// A resume joins bytes of two responses: every answer that does not prove they are one version starts over.
@Suite("Downloads: what a resume must prove")
struct DownloadStateMachineResumeTests {
    typealias Validator = DownloadStateMachine.Validator
    let etag = Validator(value: "\"v1\"", isETag: true)

    /// A machine that asked for bytes 300,000- of a 1,048,576-byte file with ETag "v1".
    func resuming(partial: Int64 = 300_000, length: Int64 = 1_048_576) -> DownloadStateMachine {
        var machine = DownloadStateMachine()
        let action = machine.start(
            partialSize: partial, saved: .init(validator: etag, length: length), resume: true)
        #expect(action == .request(range: partial, ifRange: etag))
        return machine
    }

    @Test(
        "a 206 restarts from zero unless it repeats the validator and names bytes n- of the recorded total",
        arguments: [
            // Another version (a server that ignores If-Range), a weak tag (read as none), no tag at all.
            ("bytes 300000-1048575/1048576", Validator(value: "\"v2\"", isETag: true)),
            ("bytes 300000-1048575/1048576", nil),
            // The total changed under the same ETag: doubled, halved.
            ("bytes 300000-2097151/2097152", Validator(value: "\"v1\"", isETag: true)),
            ("bytes 300000-524287/524288", Validator(value: "\"v1\"", isETag: true)),
            // Other bytes, fewer bytes, an unknown total, no Content-Range.
            ("bytes 0-1048575/1048576", Validator(value: "\"v1\"", isETag: true)),
            ("bytes 300000-399999/1048576", Validator(value: "\"v1\"", isETag: true)),
            ("bytes 300000-1048575/*", Validator(value: "\"v1\"", isETag: true)),
            ("", Validator(value: "\"v1\"", isETag: true)),
        ] as [(String, Validator?)])
    func unprovenPartialContent(range: String, validator: Validator?) {
        var machine = resuming()
        let action = machine.head(
            status: 206, contentLength: 748_576, contentRange: range.isEmpty ? nil : range, accepts: true,
            validator: validator)
        #expect(action == .restart)
        #expect(machine.state == .requesting(offset: 0, restarted: true, resuming: nil))
        // The restart asks for the whole file and takes the new version from zero.
        #expect(
            machine.head(status: 200, contentLength: 2_000, contentRange: nil, accepts: true, validator: validator)
                == .write(at: 0))
        _ = machine.received(2_000)
        #expect(machine.bodyEnded() == .commit)
        machine.committed()
        #expect(machine.state == .succeeded(resumed: false))
    }

    @Test("a 206 that proves the version appends, and a strong Last-Modified date proves it as an ETag does")
    func provenPartialContent() {
        var machine = resuming()
        #expect(
            machine.head(
                status: 206, contentLength: 748_576, contentRange: "bytes 300000-1048575/1048576", accepts: true,
                validator: etag) == .write(at: 300_000))
        let date = Validator(value: "Tue, 01 Dec 2026 10:00:00 GMT", isETag: false)
        var dated = DownloadStateMachine()
        _ = dated.start(partialSize: 10, saved: .init(validator: date, length: 20), resume: true)
        #expect(
            dated.head(status: 206, contentLength: 10, contentRange: "bytes 10-19/20", accepts: true, validator: date)
                == .write(at: 10))
    }

    @Test(
        "a 416 completes the partial file only when it is as long as the recorded total and the server names that total",
        arguments: [
            // The case: bytes */300000 to a 300,000-byte partial of a 1,048,576-byte file.
            (300_000, 1_048_576, "bytes */300000", Validator?.none, false),
            (1_048_576, 1_048_576, "bytes */2097152", nil, false),
            (1_048_576, 1_048_576, "bytes */1048576", Validator(value: "\"v2\"", isETag: true), false),
            (1_048_576, 1_048_576, "", nil, false),
            (1_048_576, 1_048_576, "bytes */1048576", nil, true),
            (1_048_576, 1_048_576, "bytes */1048576", Validator(value: "\"v1\"", isETag: true), true),
        ] as [(Int64, Int64, String, Validator?, Bool)])
    func rangeNotSatisfiable(partial: Int64, length: Int64, range: String, validator: Validator?, completes: Bool) {
        var machine = resuming(partial: partial, length: length)
        let action = machine.head(
            status: 416, contentLength: nil, contentRange: range.isEmpty ? nil : range, accepts: false,
            validator: validator)
        #expect(action == (completes ? .commit : .restart))
        if completes {
            machine.committed()
            #expect(machine.state == .succeeded(resumed: true))
        }
    }

    @Test("a connection lost mid-body resumes only with a strong validator and a known length")
    func interruptions() {
        var known = DownloadStateMachine()
        _ = known.start(partialSize: 0, saved: nil, resume: false)
        _ = known.head(status: 200, contentLength: 100, contentRange: nil, accepts: true, validator: etag)
        _ = known.received(40)
        #expect(known.interrupted(reason: "lost", canResume: true) == .request(range: 40, ifRange: etag))
        // The resumed answer is checked as any other: here the total changed.
        #expect(
            known.head(status: 206, contentLength: 60, contentRange: "bytes 40-199/200", accepts: true, validator: etag)
                == .restart)

        var chunked = DownloadStateMachine()
        _ = chunked.start(partialSize: 0, saved: nil, resume: false)
        _ = chunked.head(status: 200, contentLength: nil, contentRange: nil, accepts: true, validator: etag)
        _ = chunked.received(40)
        #expect(chunked.interrupted(reason: "lost", canResume: true) == .fail(.other("lost"), discard: false))

        var unvalidated = DownloadStateMachine()
        _ = unvalidated.start(partialSize: 0, saved: nil, resume: false)
        _ = unvalidated.head(status: 200, contentLength: 100, contentRange: nil, accepts: true, validator: nil)
        _ = unvalidated.received(40)
        #expect(unvalidated.interrupted(reason: "lost", canResume: true) == .fail(.other("lost"), discard: false))
    }

    @Test("validators: a strong ETag; a weak one rules the date out too; a date only a second or more before Date")
    func validators() {
        let modified = "Tue, 01 Dec 2026 10:00:00 GMT"
        #expect(Validator.of(etag: "\"x\"", lastModified: modified, date: nil) == .init(value: "\"x\"", isETag: true))
        #expect(Validator.of(etag: "W/\"x\"", lastModified: modified, date: "Tue, 01 Dec 2026 11:00:00 GMT") == nil)
        #expect(Validator.of(etag: "x", lastModified: nil, date: nil) == nil)
        #expect(
            Validator.of(etag: nil, lastModified: modified, date: "Tue, 01 Dec 2026 10:00:01 GMT")
                == .init(value: modified, isETag: false))
        #expect(Validator.of(etag: nil, lastModified: modified, date: modified) == nil)
        #expect(Validator.of(etag: nil, lastModified: modified, date: nil) == nil)
        #expect(Validator.of(etag: nil, lastModified: "yesterday", date: "Tue, 01 Dec 2026 11:00:00 GMT") == nil)
        #expect(Validator.of(etag: nil, lastModified: nil, date: nil) == nil)
    }
}
