import Foundation
import Synchronization

/// The first bytes of a streamed body, kept as they pass on their way to the reader: never more than `limit` bytes
/// in memory, nothing read twice, and once full only a count compared per chunk.
final class BodyPrefix: Sendable {
    let limit: Int
    private let kept = Mutex(Data())

    init(limit: Int) { self.limit = limit }

    /// What has been kept so far.
    var bytes: Data { kept.withLock { $0 } }

    fileprivate func keep(_ chunk: Data) {
        kept.withLock { kept in
            let room = limit - kept.count
            guard room > 0 else { return }
            kept.append(chunk.count <= room ? chunk : chunk.prefix(room))
        }
    }
}

extension ByteStream {
    /// This stream, each chunk passing through `prefix` before it reaches the reader.
    func keeping(_ prefix: BodyPrefix) -> ByteStream {
        let upstream = self
        return ByteStream {
            var iterator = upstream.makeAsyncIterator()
            let chunk = try await iterator.next()
            if let chunk { prefix.keep(chunk) }
            return chunk
        }
    }
}

extension Data {
    /// These bytes without the start of a UTF-8 character that a cut left at their end (up to three bytes), when
    /// that makes them UTF-8 text; else as they are (bytes that are not text).
    var endingOnWholeCharacter: Data {
        guard String(data: self, encoding: .utf8) == nil else { return self }
        for cut in 1...Swift.min(3, count) {
            let shorter = dropLast(cut)
            if String(data: shorter, encoding: .utf8) != nil { return Data(shorter) }
        }
        return self
    }
}
