import Foundation
import Synchronization

/// A JSON body that is encoded once: the first client to build the request encodes it, and every later build with
/// the same encoder (the retry, the `curlCommand`, the recording, a copy of the request) reuses those bytes.
///
/// Encoding again could give other bytes: a dictionary's keys come out in the order of its storage, which two equal
/// dictionaries need not share, so a printed command or a body hash would not reproduce what was sent.
final class EncodedJSON: Sendable {
    private let encode: @Sendable (JSONEncoder) throws -> Data
    /// The encoder is kept alive with its bytes, so its identity cannot be taken by another encoder later.
    private let encoded = Mutex<(encoder: JSONEncoder, data: Data)?>(nil)

    init(_ encode: @escaping @Sendable (JSONEncoder) throws -> Data) { self.encode = encode }

    /// The bytes `encoder` makes of the value: encoded on the first call with that encoder, reused after.
    func data(using encoder: JSONEncoder) throws -> Data {
        if let kept = encoded.withLock({ $0 }), kept.encoder === encoder { return kept.data }
        let data = try encode(encoder)
        return encoded.withLock { kept in
            // Two builds that raced both encoded; the first to finish is the one every build reuses.
            if let kept, kept.encoder === encoder { return kept.data }
            kept = (encoder, data)
            return data
        }
    }
}
