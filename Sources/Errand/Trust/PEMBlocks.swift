import Foundation

/// The certificate blocks of PEM text (RFC 7468), decoded; `nil` for a block whose body is not base64.
enum PEMBlocks {
    static func certificates(in text: String) -> [Data?] {
        let begin = "-----BEGIN CERTIFICATE-----"
        let end = "-----END CERTIFICATE-----"
        var blocks: [Data?] = []
        var rest = Substring(text)
        while let start = rest.range(of: begin) {
            guard let stop = rest.range(of: end, range: start.upperBound..<rest.endIndex) else {
                blocks.append(nil)
                break
            }
            let body = rest[start.upperBound..<stop.lowerBound].filter { !$0.isWhitespace }
            blocks.append(Data(base64Encoded: String(body)))
            rest = rest[stop.upperBound...]
        }
        return blocks
    }
}
