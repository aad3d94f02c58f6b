#if canImport(CCurl)
import Foundation

/// Decodes a response body's content codings (`gzip`, `deflate`, `br`, stacked in any order) as its bytes arrive,
/// and knows whether every coded stream ended properly.
///
/// libcurl 7.88 decodes too, but takes a gzip, deflate or brotli stream that stops early as a complete body when the
/// transfer is framed by the connection's close or by a well-terminated chunked encoding: 17 KB of a 50 KB picture
/// came back as a success. Errand therefore receives the body as sent and decodes it here; a body whose stream did
/// not end is a ``TransportFailure/Kind/connectionLost`` failure, and a corrupt one a
/// ``TransportFailure/Kind/badResponse``.
///
/// Used by the loop thread alone, one transfer at a time.
final class ContentDecoder {
    /// One coding's decoder.
    protocol Stage: AnyObject {
        /// Decodes `input` whole, passing the output to `output` piece by piece; `output` returning false stops.
        func decode(_ input: UnsafeRawBufferPointer, _ output: (UnsafeRawBufferPointer) -> Bool) -> Outcome
        /// Whether the coded stream reached its proper end.
        var hasEnded: Bool { get }
    }

    /// How decoding a piece of input went.
    enum Outcome: Equatable {
        /// Everything was decoded (or kept by the coding for the next piece).
        case decoded
        /// The receiver of the output asked to stop.
        case stopped
        /// The input is not valid for the coding.
        case corrupt(String)
    }

    /// The codings Errand can decode with the libraries of this process, in the form of an `Accept-Encoding` value.
    static let acceptEncoding: String = {
        var codings: [String] = []
        if ZlibStage.isAvailable { codings += ["deflate", "gzip"] }
        if BrotliStage.isAvailable { codings.append("br") }
        return codings.isEmpty ? "identity" : codings.joined(separator: ", ")
    }()

    /// Stages in the order the input goes through them: the last coding applied is decoded first.
    private let stages: [any Stage]
    private var sawInput = false

    /// A decoder for the `Content-Encoding` values of a head, `nil` when the body is to be passed on as sent: not
    /// coded, or coded with a coding Errand does not know (`Content-Encoding: foo`). Such a body goes to the caller
    /// with the field intact, as browsers and URLSession hand it over, so a caller that knows the coding can decode
    /// it; the codings under an unknown one cannot be undone either, so none is. Throws for a known coding whose
    /// library this process lacks.
    static func make(contentEncoding values: [[UInt8]]) throws(ErrandError) -> ContentDecoder? {
        var stages: [any Stage] = []
        for value in values {
            for token in value.split(separator: UInt8(ascii: ",")) {
                let name = String(decoding: token, as: UTF8.self).trimmingCharacters(in: .whitespaces).lowercased()
                switch name {
                case "", "identity":
                    continue
                case "gzip", "x-gzip", "deflate":
                    guard let stage = ZlibStage(gzip: name != "deflate") else { throw unsupported(name) }
                    stages.insert(stage, at: 0)
                case "br":
                    guard let stage = BrotliStage() else { throw unsupported(name) }
                    stages.insert(stage, at: 0)
                default:
                    return nil
                }
            }
        }
        return stages.isEmpty ? nil : ContentDecoder(stages: stages)
    }

    private static func unsupported(_ coding: String) -> ErrandError {
        .transport(
            TransportFailure(kind: .badResponse, underlying: "the body's content coding \(coding) is not supported"))
    }

    private init(stages: [any Stage]) {
        self.stages = stages
    }

    /// Decodes a piece of the body as received, passing decoded bytes to `output`.
    func decode(_ input: UnsafeRawBufferPointer, _ output: (UnsafeRawBufferPointer) -> Bool) -> Outcome {
        if !input.isEmpty { sawInput = true }
        return decode(input, from: 0, output)
    }

    private func decode(
        _ input: UnsafeRawBufferPointer, from index: Int, _ output: (UnsafeRawBufferPointer) -> Bool
    ) -> Outcome {
        guard index < stages.count else { return output(input) ? .decoded : .stopped }
        var inner = Outcome.decoded
        let outer = stages[index].decode(input) { piece in
            inner = decode(piece, from: index + 1, output)
            return inner == .decoded
        }
        return inner == .decoded ? outer : inner
    }

    /// Whether every coded stream ended properly; an empty body (a HEAD response, a 204) counts as ended.
    var hasEnded: Bool {
        !sawInput || stages.allSatisfy(\.hasEnded)
    }
}
#endif
