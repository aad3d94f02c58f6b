import Foundation

/// The secrets of a printed curl command, masked wherever they appear: `redaction`'s rules applied to header values,
/// bodies and multipart parts as ``Redaction/redact(text:)`` applies them to a message. With no rules, everything is
/// shown.
struct CurlCommandMasking {
    let redaction: Redaction?

    /// Secret fields masked whole, and the secrets inside every other value (a URL in a `Referer`, say).
    func headers(_ headers: HTTPHeaders) -> HTTPHeaders {
        guard let redaction else { return headers }
        return HTTPHeaders(
            redaction.redact(headers).fields.map { .init(name: $0.name, value: redaction.redact(text: $0.value)) })
    }

    /// Text with its secrets masked.
    func text(_ text: String) -> String {
        redaction?.redact(text: text) ?? text
    }

    /// Bytes with their secrets masked: as text when they are UTF-8 (so `api_key=…` in a form body is masked too),
    /// else every secret value's bytes, as typed or percent-encoded.
    func bytes(_ data: Data) -> Data {
        guard let redaction else { return data }
        if let text = String(data: data, encoding: .utf8) { return Data(redaction.redact(text: text).utf8) }
        let spellings = redaction.pathSegments.filter { !$0.isEmpty }
            .flatMap { [$0, PercentEncoding.encode($0)] }.map { Data($0.utf8) }
            .sorted { $0.count > $1.count }
        var masked = data
        for secret in spellings {
            while let range = masked.range(of: secret) {
                masked.replaceSubrange(range, with: Data(Redaction.mask.utf8))
            }
        }
        return masked
    }

    /// A part with its secrets masked: its name, filename and file path, and its value, masked whole when the
    /// part's name is a secret query name (a form's `api_key` field).
    func part(_ part: MultipartPart) -> MultipartPart {
        guard let redaction else { return part }
        let content: MultipartPart.Content
        switch part.content {
        case .bytes(let data):
            let isSecretField = redaction.isSecret(queryName: part.name)
            content = .bytes(isSecretField ? Data(Redaction.mask.utf8) : bytes(data))
        case .file(let url):
            let path = text(url.path)
            content = .file(path == url.path ? url : URL(fileURLWithPath: path))
        }
        return MultipartPart(
            name: text(part.name), filename: part.filename.map(text), contentType: part.contentType.map(text),
            content: content)
    }
}
