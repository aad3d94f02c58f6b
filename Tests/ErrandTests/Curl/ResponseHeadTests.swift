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
        #expect(headers.fields.map(\.name) == ["Set-Cookie", "Content-Type", "Set-Cookie", "X-Empty", "X-Time", "X-Name"])
        #expect(headers.values(for: "set-cookie") == ["a=1", "b=2"])
        #expect(headers["X-Empty"] == "")
        #expect(headers["x-time"] == "12:30:45")
        #expect(headers["X-Name"] == "Crème brûlée")
    }

    @Test("lookups ignore case; numbers are plain decimal digits or nothing")
    func lookups() {
        let head = Self.head([("content-length", "2048"), ("CONTENT-ENCODING", "Identity"), ("X-Big", "12x")])
        #expect(head.contains("Content-Length"))
        #expect(!head.contains("Location"))
        #expect(head.number(of: "Content-Length") == 2048)
        #expect(head.number(of: "X-Big") == nil)
        #expect(head.number(of: "Missing") == nil)
        #expect(head.value(of: "Content-Encoding", equals: "identity"))
        #expect(!head.value(of: "Content-Encoding", equals: "gzip"))
        #expect(Self.head([("Content-Length", "99999999999999999999")]).number(of: "Content-Length") == nil)
        #expect(Self.head([("Content-Length", "")]).number(of: "Content-Length") == nil)
    }

    @Test("emptying keeps nothing of the previous head")
    func removeAll() {
        var head = Self.head([("Location", "/next")])
        head.removeAll()
        #expect(!head.contains("Location"))
        #expect(head.headers().fields.isEmpty)
    }
}
