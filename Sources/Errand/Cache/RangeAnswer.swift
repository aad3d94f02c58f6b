import Foundation

/// The part of a stored response a `Range` request asks for, when the cache can answer it itself (RFC 9110 §14):
/// one satisfiable byte range (`bytes=A-B`, `bytes=A-`, `bytes=-N`) of a complete 200 response stored without a
/// content coding.
///
/// Anything else goes to the server: several ranges (a multipart answer for a client that rarely asks for one),
/// other units, ranges past the end (the server words its own 416), and coded responses, whose bytes the cache
/// holds decoded while a range counts the coded ones.
struct RangeAnswer: Equatable {
    /// The first byte served.
    let first: Int
    /// The last byte served.
    let last: Int
    /// The whole representation's length.
    let length: Int

    /// The range `field` names in `stored`, or `nil` when the cache should not answer it.
    init?(_ field: String, of stored: CachedResponse) {
        guard stored.status == 200, !stored.headers.contains("Content-Range"), Self.isUncoded(stored.headers) else {
            return nil
        }
        self.init(field, length: stored.body.count)
    }

    /// The range `field` names in a representation of `length` bytes.
    init?(_ field: String, length: Int) {
        let text = field.trimmingCharacters(in: .whitespaces)
        guard text.lowercased().hasPrefix("bytes="), length > 0 else { return nil }
        let spec = text.dropFirst("bytes=".count).trimmingCharacters(in: .whitespaces)
        guard !spec.contains(","), let dash = spec.firstIndex(of: "-") else { return nil }
        let start = spec[..<dash].trimmingCharacters(in: .whitespaces)
        let end = spec[spec.index(after: dash)...].trimmingCharacters(in: .whitespaces)
        let firstNumber = CacheControl.deltaSeconds(Substring(start).utf8)
        let lastNumber = CacheControl.deltaSeconds(Substring(end).utf8)
        switch (start.isEmpty, end.isEmpty) {
        case (false, _):
            // bytes=A- and bytes=A-B
            guard let firstNumber, firstNumber < length else { return nil }
            if !end.isEmpty {
                guard let lastNumber, lastNumber >= firstNumber else { return nil }
                self.init(first: firstNumber, last: min(lastNumber, length - 1), length: length)
            } else {
                self.init(first: firstNumber, last: length - 1, length: length)
            }
        case (true, false):
            // bytes=-N: the last N bytes
            guard let lastNumber, lastNumber > 0 else { return nil }
            self.init(first: max(0, length - lastNumber), last: length - 1, length: length)
        case (true, true):
            return nil
        }
    }

    private init(first: Int, last: Int, length: Int) {
        self.first = first
        self.last = last
        self.length = length
    }

    /// Makes a whole stored response the 206 answer for this range.
    func apply(to response: inout TransportResponse) {
        response.status = 206
        response.body = response.body.subdata(
            in: (response.body.startIndex + first)..<(response.body.startIndex + last + 1))
        response.headers["Content-Range"] = "bytes \(first)-\(last)/\(length)"
        response.headers["Content-Length"] = String(last - first + 1)
    }

    private static func isUncoded(_ headers: HTTPHeaders) -> Bool {
        headers.values(for: "Content-Encoding").allSatisfy {
            let coding = $0.trimmingCharacters(in: .whitespaces).lowercased()
            return coding.isEmpty || coding == "identity"
        }
    }
}
