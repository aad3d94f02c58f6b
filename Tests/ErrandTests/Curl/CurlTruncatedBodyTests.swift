#if canImport(CCurl)
import Errand
import Foundation
import TestSupport
import Testing

/// Compressed bodies that stop before their stream ends are never a success, however the transfer is framed.
@Suite("Curl transport: truncated compressed bodies")
struct CurlTruncatedBodyTests {
    /// 12,000 bytes of JSON lines, and that text in each coding (made with Python's gzip, zlib and brotli modules).
    static let text = Data(
        String(repeating: #"{"objectID": 436535, "title": "Wheat Field with Cypresses"}"# + "\n", count: 200).utf8)
    static let codings: [(name: String, base64: String)] = [
        (
            "gzip",
            "H4sIADiPDmsC/+3LOwrCQBQAwN5TLFuni7FIqwiewNrPg6wEFHdBJHh3PYTltAOz5Pv5Fpd22OUxrfvN0A9dyq20OX6Qj1OcWtqXmK/pVdqUtu/HM2qNmj+rxXVd13Vd13Vd13Vd13Vd13Vd13Vd13Vd13Vd13Vd13Vd13X/dL/cGDVP4C4AAA=="
        ),
        (
            "deflate",
            "eJztyzsKwkAUAMDeUyxbp4uxSKsInsDaz4OsBBR3QSR4dz2E5bQDs+T7+RaXdtjlMa37zdAPXcqttDl+kI9TnFral5iv6VXalLbvxzNqjZo/q8V1Xdd1Xdd1Xdd1Xdd1Xdd1Xdd1Xdd1Xdd1Xdd1Xdd1Xdd1/3S/1rrGEw=="
        ),
        (
            "br",
            "G98uyC0K7FgGXrBUiM46Xm5shEpvEZq5vT1EdJUndRT6GkQkqWyzzNTYgA04YG/QbbCBdDG4dIK6Zofniq81JvIMWKGbdjAg2LuXCcDXMQ=="
        ),
    ]
    /// Raw deflate, as some servers send under `deflate`.
    static let rawDeflate =
        "7cs7CsJAFADA3lMsW6eLsUirCJ7A2s+DrAQUd0EkeHc9hOW0A7Pk+/kWl3bY5TGt+83QD13KrbQ5fpCPU5xa2peYr+lV2pS278czao2aP6vFdV3XdV3XdV3XdV3XdV3XdV3XdV3XdV3XdV3XdV3XdV3Xdf90vw=="

    private static func coded(_ base64: String) throws -> [UInt8] {
        try Array(#require(Data(base64Encoded: base64)))
    }

    /// A response framed by the connection's close.
    private static func closeFramed(_ coding: String, _ body: [UInt8]) throws -> HostileServer {
        try HostileServer(head: ["HTTP/1.1 200 OK", "Content-Encoding: \(coding)", "Connection: close"], body: body)
    }

    /// A response in a chunked encoding that ends properly, whatever the body inside it.
    private static func chunked(_ coding: String, _ body: [UInt8]) throws -> HostileServer {
        let chunk = Array(String(body.count, radix: 16).utf8) + Array("\r\n".utf8) + body + Array("\r\n0\r\n\r\n".utf8)
        return try HostileServer(
            head: ["HTTP/1.1 200 OK", "Content-Encoding: \(coding)", "Transfer-Encoding: chunked"], body: chunk)
    }

    private static func request(_ server: HostileServer) -> TransportRequest {
        TransportRequest(url: server.url(), timeouts: Timeouts(total: .seconds(10)))
    }

    @Test("a whole coded body framed by the connection's close or by chunks decodes", arguments: [0, 1, 2])
    func wholeBodiesDecode(coding: Int) async throws {
        let (name, base64) = Self.codings[coding]
        for server in [try Self.closeFramed(name, Self.coded(base64)), try Self.chunked(name, Self.coded(base64))] {
            let response = try await CurlTest.transport().send(Self.request(server))
            #expect(response.body == Self.text)
            #expect(response.metrics.bytesReceived == Self.text.count)
        }
    }

    @Test(
        "a coded body cut short fails with connectionLost, framed by close or by well-terminated chunks",
        arguments: [0, 1, 2])
    func truncatedBodiesFail(coding: Int) async throws {
        let (name, base64) = Self.codings[coding]
        let whole = try Self.coded(base64)
        let cut = Array(whole.prefix(whole.count * 2 / 3))
        for server in [try Self.closeFramed(name, cut), try Self.chunked(name, cut)] {
            let error = await #expect(throws: ErrandError.self) {
                try await CurlTest.transport().send(Self.request(server))
            }
            #expect(error.flatMap(CurlTest.failureKind) == .connectionLost, "\(name): \(String(describing: error))")
        }
    }

    @Test("a coded body cut short whose Content-Length matches the bytes sent fails with connectionLost")
    func truncatedWithMatchingLength() async throws {
        let whole = try Self.coded(Self.codings[0].base64)
        let cut = Array(whole.prefix(whole.count / 2))
        let server = try HostileServer(
            head: ["HTTP/1.1 200 OK", "Content-Encoding: gzip", "Content-Length: \(cut.count)"], body: cut)
        let error = await #expect(throws: ErrandError.self) {
            try await CurlTest.transport().send(Self.request(server))
        }
        #expect(error.flatMap(CurlTest.failureKind) == .connectionLost)
    }

    @Test("a streamed coded body cut short ends its stream with connectionLost")
    func truncatedStreamFails() async throws {
        let whole = try Self.coded(Self.codings[0].base64)
        let server = try Self.chunked("gzip", Array(whole.dropLast(8)))
        let response = try await CurlTest.transport().stream(Self.request(server))
        #expect(response.status == 200)
        let error = await #expect(throws: ErrandError.self) { _ = try await response.body.collect() }
        #expect(error.flatMap(CurlTest.failureKind) == .connectionLost)
    }

    @Test("a gzip body without its trailer is not complete")
    func missingTrailer() async throws {
        let whole = try Self.coded(Self.codings[0].base64)
        let server = try Self.closeFramed("gzip", Array(whole.dropLast(8)))
        let error = await #expect(throws: ErrandError.self) {
            try await CurlTest.transport().send(Self.request(server))
        }
        #expect(error.flatMap(CurlTest.failureKind) == .connectionLost)
    }

    @Test("a corrupt coded body is a bad response")
    func corrupt() async throws {
        var corrupt = try Self.coded(Self.codings[0].base64)
        for index in 20..<60 { corrupt[index] ^= 0x5a }
        let error = await #expect(throws: ErrandError.self) {
            try await CurlTest.transport().send(Self.request(try Self.closeFramed("gzip", corrupt)))
        }
        #expect(error.flatMap(CurlTest.failureKind) == .badResponse)
    }

    @Test("a coding nobody here knows passes through as sent, its field intact, codings under it too")
    func unknownPassesThrough() async throws {
        let unknown = try await CurlTest.transport().send(
            Self.request(try Self.closeFramed("compress", Array("x".utf8))))
        #expect(unknown.body == Data("x".utf8) && unknown.headers["Content-Encoding"] == "compress")
        let gzipped = try Self.coded(Self.codings[0].base64)
        let stacked = try await CurlTest.transport().send(Self.request(try Self.closeFramed("gzip, foo", gzipped)))
        #expect(stacked.body == Data(gzipped) && stacked.headers["Content-Encoding"] == "gzip, foo")
    }

    @Test("raw deflate under `deflate`, and stacked codings, decode")
    func rawDeflateAndStacks() async throws {
        let raw = try Self.closeFramed("deflate", Self.coded(Self.rawDeflate))
        #expect(try await CurlTest.transport().send(Self.request(raw)).body == Self.text)
        // Content-Encoding lists codings in the order they were applied: identity, then gzip.
        let stacked = try Self.closeFramed("identity, gzip", Self.coded(Self.codings[0].base64))
        #expect(try await CurlTest.transport().send(Self.request(stacked)).body == Self.text)
    }

    @Test("an empty coded body, as a HEAD answer or a 204 has, is complete")
    func emptyBodyIsComplete() async throws {
        let server = try HostileServer(head: ["HTTP/1.1 204 No Content", "Content-Encoding: gzip"])
        let response = try await CurlTest.transport().send(Self.request(server))
        #expect(response.status == 204)
        #expect(response.body.isEmpty)
    }
}
#endif
