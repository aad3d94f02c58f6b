#if canImport(CCurl)
@testable import Errand
import Foundation
import Testing

@Suite("Curl transport: response heads kept as bytes")
struct ResponseHeadTests {
    /// A head built the way the loop builds it, from (name, value) pairs already trimmed.
    private static func head(_ fields: [(String, String)]) -> ResponseHead {
        var head = ResponseHead()
        for (name, value) in fields {
            let nameBytes = Array(name.utf8)
            let valueBytes = Array(value.utf8)
            nameBytes.withUnsafeBufferPointer { namePointer in
                valueBytes.withUnsafeBufferPointer { valuePointer in
                    head.append(name: namePointer[...], value: valuePointer[...])
                }
            }
        }
        return head
    }

    @Test("fields come back in order, duplicates and empty values included, with their bytes intact")
    func headersKeepOrderAndBytes() {
        let head = Self.head([
            ("Set-Cookie", "a=1"), ("Content-Type", "application/json; charset=utf-8"), ("Set-Cookie", "b=2"),
            ("X-Empty", ""), ("X-Time", "12:30:45"), ("X-Name", "Crème brûlée"),
        ])
        let headers = head.headers()
        #expect(
            headers.fields.map(\.name) == ["Set-Cookie", "Content-Type", "Set-Cookie", "X-Empty", "X-Time", "X-Name"])
        #expect(headers.values(for: "set-cookie") == ["a=1", "b=2"])
        #expect(headers["X-Empty"] == "")
        #expect(headers["x-time"] == "12:30:45")
        #expect(headers["X-Name"] == "Crème brûlée")
    }

    @Test("the fields the loop decides on are noted as they come, names compared without regard to case")
    func notedFields() {
        let head = Self.head([("content-length", "2048"), ("CONTENT-ENCODING", "Identity"), ("X-Location", "/x")])
        #expect(head.contentLength == 2048)
        #expect(head.hasIdentityEncoding)
        #expect(!Self.head([("Content-Encoding", "gzip")]).hasIdentityEncoding)
        #expect(Self.head([("X-Other", "1")]).hasIdentityEncoding)
        // The first Content-Length counts; anything but plain digits is no length.
        #expect(Self.head([("Content-Length", "10"), ("Content-Length", "20")]).contentLength == 10)
        #expect(Self.head([("Content-Length", "12x")]).contentLength == nil)
        #expect(Self.head([("Content-Length", "-1")]).contentLength == nil)
        // A number past any cap, of any length, saturates: it fails a capped body at once and overflows nothing.
        #expect(
            Self.head([("Content-Length", "99999999999999999999")]).contentLength == ResponseHead.largestContentLength)
        #expect(Self.head([("Content-Length", "")]).contentLength == nil)
    }

    @Test("emptying keeps nothing of the previous head")
    func removeAll() {
        var head = Self.head([("Location", "/next"), ("Content-Length", "5"), ("Content-Encoding", "br")])
        head.removeAll()
        #expect(head.contentLength == nil)
        #expect(head.hasIdentityEncoding)
        #expect(head.headers().fields.isEmpty)
    }

    /// Feeds one line as libcurl hands it over.
    private static func take(_ line: String, into head: inout ResponseHead) -> ResponseHead.Line {
        Array(line.utf8).withUnsafeBytes { head.take(line: $0) }
    }

    @Test("lines make a head: the status, fields trimmed, interim heads forgotten, the final blank line noticed")
    func linesMakeAHead() {
        var head = ResponseHead()
        #expect(Self.take("HTTP/1.1 100 Continue\r\n", into: &head) == .partOfHead)
        #expect(Self.take("X-Interim: 1\r\n", into: &head) == .partOfHead)
        #expect(Self.take("\r\n", into: &head) == .interimHeadEnded)
        #expect(Self.take("HTTP/2 302\r\n", into: &head) == .partOfHead)
        #expect(Self.take("Location:  /next \t\r\n", into: &head) == .partOfHead)
        #expect(Self.take("folded continuation\r\n", into: &head) == .partOfHead)
        #expect(Self.take("Content-Length: 12\n", into: &head) == .partOfHead)
        #expect(Self.take("\r\n", into: &head) == .finalHeadEnded)
        #expect(head.status == 302)
        #expect(head.contentLength == 12)
        #expect(head.headers().fields.map(\.name) == ["Location", "Content-Length"])
        #expect(head.headers()["location"] == "/next")
        head.removeAll()
        #expect(head.status == 0)
        #expect(head.headers().fields.isEmpty)
    }

    @Test("a hop's head lines beyond the size limit, interim heads included, are refused")
    func sizeLimit() {
        var head = ResponseHead()
        let line = "X-Pad: " + String(repeating: "p", count: 1000) + "\r\n"
        var outcome = ResponseHead.Line.partOfHead
        var lines = 0
        while outcome == .partOfHead, lines < 1000 {
            outcome = Self.take(lines % 100 == 0 ? "HTTP/1.1 103 Early Hints\r\n" : line, into: &head)
            lines += 1
        }
        #expect(outcome == .tooLarge)
        #expect(lines * line.utf8.count >= ResponseHead.sizeLimit)
        head.removeAll()
        #expect(Self.take("HTTP/1.1 200 OK\r\n", into: &head) == .partOfHead)
    }
}
#endif
