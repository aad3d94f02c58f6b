import Foundation

extension TransportRequest {
    /// The request as a `curl` command line that, pasted into a POSIX shell, sends the same request: method, URL,
    /// header fields and body.
    ///
    /// Secrets are masked with ``Redaction/mask`` by `redaction`'s rules — the values of secret header fields and
    /// query names, and secret path segments wherever they occur in the URL — unless `showingSecrets` is true. The
    /// body is printed as it is sent:
    /// - text with `--data-binary 'text'`, other bytes through `printf` and `--data-binary @-`;
    /// - a file with `--data-binary @path`;
    /// - multipart with `--form-string` for fields and `-F` for files (`@path`); in-memory parts are written to a
    ///   temporary folder first (`mktemp -d`, removed afterwards), so their bytes go as they are. curl picks its own
    ///   boundary, so the bodies match part for part rather than byte for byte.
    ///
    /// A field name that contains `=` cannot be written for curl's `-F` and is sent up to its `=`.
    public func curlCommand(redaction: Redaction = Redaction(), showingSecrets: Bool = false) -> String {
        CurlCommandBuilder(request: self, redaction: showingSecrets ? nil : redaction).command
    }
}

extension APIClient {
    /// The request as a `curl` command line, built as ``send(_:)-(Request<Data>)`` would send it (the client's headers
    /// merged in), with the client's ``ClientConfiguration/redaction`` rules masking secrets unless `showingSecrets`
    /// is true. See ``TransportRequest/curlCommand(redaction:showingSecrets:)``.
    public func curlCommand<Value>(for request: Request<Value>, showingSecrets: Bool = false) throws(ErrandError)
        -> String
    {
        try makeTransportRequest(request).curlCommand(
            redaction: configuration.redaction, showingSecrets: showingSecrets)
    }
}

/// Writes one ``TransportRequest`` as shell words.
struct CurlCommandBuilder {
    let request: TransportRequest
    /// The rules that mask secrets, or `nil` to show them.
    let redaction: Redaction?

    var command: String {
        var prelude: [String] = []
        var input: String?
        // One line per option and its value.
        var words: [String] = ["curl"]
        let url = redaction?.redact(request.url) ?? request.url.absoluteString
        switch request.method {
        case .get where request.body == .none:
            break
        case .head:
            words.append("--head")
        case .post where request.body != .none:
            break
        default:
            words.append("--request \(Self.quoted(request.method.rawValue))")
        }
        // curl would read [ ] { } in a URL (an IPv6 host, say) as its own ranges and lists.
        if url.contains(where: { "[]{}".contains($0) }) { words.append("--globoff") }
        words.append(Self.quoted(url))
        let headers = redaction?.redact(request.headers) ?? request.headers
        for field in headers where !isSetByCurl(field.name) {
            words.append(
                "--header \(Self.quoted(field.value.isEmpty ? "\(field.name);" : "\(field.name): \(field.value)"))")
        }
        switch request.body {
        case .none:
            break
        case .data(let data):
            if let text = String(data: data, encoding: .utf8), Self.isPlainText(text), !text.hasPrefix("@") {
                words.append("--data-binary \(Self.quoted(text))")
            } else {
                input = Self.printf(data)
                words.append("--data-binary @-")
            }
        case .file(let file):
            words.append("--data-binary \(Self.quoted("@" + file.path))")
        case .multipart(let body):
            var written = 0
            for part in body.parts {
                words.append(formOption(part, prelude: &prelude, written: &written))
            }
        }
        var line = words.joined(separator: " \\\n  ")
        if let input { line = "\(input) | \(line)" }
        guard !prelude.isEmpty else { return line }
        return (["parts=$(mktemp -d)"] + prelude + [line]).joined(separator: " &&\n") + "\nrm -r \"$parts\""
    }

    /// Fields curl sets itself from the body it sends: a multipart type names curl's boundary, not Errand's.
    private func isSetByCurl(_ name: String) -> Bool {
        let lowered = name.lowercased()
        if lowered == "content-length" || lowered == "transfer-encoding" { return true }
        if case .multipart = request.body, lowered == "content-type" { return true }
        return false
    }

    /// The option for one multipart part; in-memory bytes go to a numbered file in `$parts` first.
    private func formOption(_ part: MultipartPart, prelude: inout [String], written: inout Int) -> String {
        let name = String(part.name.prefix { $0 != "=" })
        var options = ""
        if let filename = part.filename { options += ";filename=\(Self.formQuoted(filename))" }
        // curl reads `type=` to the end, parameters and all, so it goes last and unquoted.
        if let contentType = part.contentType { options += ";type=\(contentType)" }
        switch part.content {
        case .bytes(let data) where part.filename == nil && part.contentType == nil:
            return "--form-string \(Self.quoted("\(name)=\(String(decoding: data, as: UTF8.self))"))"
        case .bytes(let data):
            written += 1
            prelude.append("\(Self.printf(data)) > \"$parts/\(written)\"")
            // `<` sends the file's bytes as the part without a filename of its own; `@` names one.
            let source = part.filename == nil ? "<" : "@"
            return "-F \(Self.quoted("\(name)=\(source)\""))\"$parts/\(written)\"\(Self.quoted("\"\(options)"))"
        case .file(let url):
            return "-F \(Self.quoted("\(name)=@\(Self.formQuoted(url.path))\(options)"))"
        }
    }

    /// Text a shell and a terminal take as it is: no control characters but newline and tab.
    private static func isPlainText(_ text: String) -> Bool {
        text.unicodeScalars.allSatisfy { $0 == "\n" || $0 == "\t" || ($0.value >= 0x20 && $0.value != 0x7F) }
    }

    /// A word in single quotes, unless it is made of characters no shell treats specially.
    static func quoted(_ word: String) -> String {
        let plain =
            !word.isEmpty
            && word.unicodeScalars.allSatisfy { scalar in
                scalar.isASCII
                    && (CharacterSet.alphanumerics.contains(scalar) || "-_./:@%+,=".unicodeScalars.contains(scalar))
            }
        if plain { return word }
        return "'" + word.replacingOccurrences(of: "'", with: "'\\''") + "'"
    }

    /// A string in curl's `-F` syntax: double quotes, with `"` and `\` escaped by a backslash.
    private static func formQuoted(_ text: String) -> String {
        "\"" + text.replacingOccurrences(of: "\\", with: "\\\\").replacingOccurrences(of: "\"", with: "\\\"") + "\""
    }

    /// A `printf` that writes exactly `data`: printable ASCII as itself, every other byte as a three-digit octal
    /// escape (POSIX printf's format reads `\ddd`), `%` and `\` escaped.
    static func printf(_ data: Data) -> String {
        var format = ""
        for byte in data {
            switch byte {
            case UInt8(ascii: "%"): format += "%%"
            case UInt8(ascii: "\\"): format += "\\\\"
            case UInt8(ascii: "'"): format += "\\047"
            case 0x20...0x7E: format.unicodeScalars.append(UnicodeScalar(byte))
            default:
                let octal = String(byte, radix: 8)
                format += "\\" + String(repeating: "0", count: 3 - octal.count) + octal
            }
        }
        return "printf '\(format)'"
    }
}
