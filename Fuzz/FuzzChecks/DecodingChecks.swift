import Foundation
@testable import Errand

/// The content decoder's promises on arbitrary bodies (the curl transport decodes gzip, deflate and br itself): no
/// crash; the same output, outcome and end-of-stream answer however the body is cut into pieces on the wire; and a
/// receiver that says stop gets nothing more, so a decompression bomb ends where the size limit is.
///
/// Input: the first byte picks the `Content-Encoding` (one coding, two stacked, or a spelling variant), the second
/// where the body is cut in two; the rest is the body as received.
enum DecodingChecks {
    static let encodings: [[String]] = [
        ["gzip"], ["deflate"], ["br"], ["gzip", "br"], ["identity, gzip"], ["x-gzip"], ["deflate, br"],
    ]
    /// The most decoded bytes a check keeps before it says stop.
    static let outputLimit = 1 << 20

    static func check(_ input: FuzzInput) -> Violations {
        #if canImport(CCurl)
        guard input.bytes.count >= 2 else { return [] }
        let encoding = encodings[Int(input.bytes[0]) % encodings.count]
        let body = Array(input.bytes.dropFirst(2))
        let cut = Int(input.bytes[1]) * body.count / 256
        guard let whole = run(encoding, pieces: [body[...]]) else { return [] }  // a library is missing here
        var violations: Violations = whole.violations
        var splittings: [[ArraySlice<UInt8>]] = [[body[..<cut], body[cut...]]]
        if body.count <= 256 { splittings.append(body.indices.map { body[$0...$0] }) }
        for pieces in splittings {
            guard let split = run(encoding, pieces: pieces) else { continue }
            violations += split.violations
            // A body that stops the receiver in one piece may do so at another point in many: compare the rest.
            guard whole.outcome != .stopped, split.outcome != .stopped else { continue }
            if split.outcome.isCorrupt != whole.outcome.isCorrupt {
                violations.append("\(encoding) in \(pieces.count) pieces: \(split.outcome), whole: \(whole.outcome)")
            } else if !whole.outcome.isCorrupt && (split.output != whole.output || split.ended != whole.ended) {
                violations.append(
                    "\(encoding) in \(pieces.count) pieces decodes to \(split.output.count) bytes (ended \(split.ended)), "
                        + "whole to \(whole.output.count) (ended \(whole.ended))")
            }
        }
        return violations
        #else
        return []  // the decoder exists only with libcurl
        #endif
    }

    #if canImport(CCurl)
    private struct Run {
        var outcome: ContentDecoder.Outcome
        var output: [UInt8]
        var ended: Bool
        var violations: Violations
    }

    /// Decodes the pieces in turn, keeping at most ``outputLimit`` bytes; `nil` when a coding cannot be decoded here.
    private static func run(_ encoding: [String], pieces: [ArraySlice<UInt8>]) -> Run? {
        guard let decoder = try? ContentDecoder.make(contentEncoding: encoding.map { Array($0.utf8) }) else {
            return nil
        }
        var output: [UInt8] = []
        var stopped = false
        var violations: Violations = []
        var outcome = ContentDecoder.Outcome.decoded
        for piece in pieces {
            outcome = piece.withUnsafeBytes { bytes in
                decoder.decode(bytes) { decoded in
                    if stopped { violations.append("\(encoding): output after the receiver said stop") }
                    output += decoded
                    stopped = output.count > outputLimit
                    return !stopped
                }
            }
            if outcome != .decoded { break }
        }
        if stopped && outcome != .stopped { violations.append("\(encoding): stopped, but the outcome is \(outcome)") }
        return Run(outcome: outcome, output: output, ended: decoder.hasEnded, violations: violations)
    }
    #endif
}

#if canImport(CCurl)
extension ContentDecoder.Outcome {
    var isCorrupt: Bool {
        if case .corrupt = self { return true }
        return false
    }
}
#endif
