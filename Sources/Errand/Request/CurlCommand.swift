import Foundation

extension TransportRequest {
    /// The request as a `curl` command line that, pasted into bash, zsh or dash, sends the same request: method,
    /// URL, header fields and body.
    ///
    /// Every word is single-quoted unless it is plain, so no shell expands anything (zsh's `=word` included). A
    /// character a terminal would act on (ESC, BEL, CR and the other controls, the bidirectional overrides) never
    /// appears as itself: it is written `"$(printf '\033')"`, which all three shells read, so printing the command
    /// sends no escape sequence. curl reads no file the request does not name. Headers curl adds on its own
    /// (`Accept`, `User-Agent`, `Expect`, a form `Content-Type`) are switched off when the request has none.
    ///
    /// The body is printed as it is sent:
    /// - text with `--data-binary 'text'`, other bytes (NUL included) through `printf` and `--data-binary @-`;
    /// - a file with `--data-binary @path`;
    /// - multipart with `--form-string` for text fields and `-F` for the rest, each part's name, filename and
    ///   `Content-Type` quoted so that curl takes them literally; in-memory parts are written to a temporary folder
    ///   first (`mktemp -d`, removed afterwards). curl picks its own boundary, so the bodies match part for part
    ///   rather than byte for byte; a part whose name is empty or holds `=`, or whose `Content-Type` curl would read
    ///   as options, gets its header lines from the command in the other order (`Content-Type` first).
    ///
    /// A request no command line can carry (a NUL in a multipart name or filename, a header Errand would refuse to
    /// send) prints as a command that says why on stderr and fails, instead of one that would send something else.
    ///
    /// Unless `showingSecrets` is true, every secret `redaction` or the request's own ``secrets`` name is masked with ``Redaction/mask`` wherever it
    /// appears: the values of secret header fields, and by ``Redaction/redact(text:)``'s rule the secret values and
    /// the values after a secret query name in the URL, in every header value, in a text body (a form body's
    /// `api_key=…`), in bytes in memory and in every multipart part's name, filename, value and file path. A file's
    /// contents are read by curl when the command runs and are not masked.
    public func curlCommand(redaction: Redaction = Redaction(), showingSecrets: Bool = false) -> String {
        CurlCommandBuilder(request: self, redaction: showingSecrets ? nil : redaction.covering(self)).command
    }
}

extension APIClient {
    /// The request as a `curl` command line, built as ``send(_:)-(Request<Data>)`` would send it (the client's headers
    /// merged in, and its ``ClientConfiguration/cookies`` for the URL), with the client's
    /// ``ClientConfiguration/redaction`` rules masking secrets unless `showingSecrets` is true.
    /// See ``TransportRequest/curlCommand(redaction:showingSecrets:)``.
    public func curlCommand<Value>(for request: Request<Value>, showingSecrets: Bool = false) throws(ErrandError)
        -> String
    {
        var transportRequest = try makeTransportRequest(request)
        configuration.cookies?.attach(to: &transportRequest, markingUsed: false)
        return transportRequest.curlCommand(redaction: configuration.redaction, showingSecrets: showingSecrets)
    }
}

/// Writes one ``TransportRequest`` as shell words.
struct CurlCommandBuilder {
    let request: TransportRequest
    /// The rules that mask secrets, or `nil` to show them.
    let redaction: Redaction?

    var command: String {
        if let problem { return Self.refusal(problem) }
        let masking = CurlCommandMasking(redaction: redaction)
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
            words.append("--request \(ShellWord.quoted(request.method.rawValue))")
        }
        // curl would read [ ] { } in a URL (an IPv6 host, say) as its own ranges and lists.
        if url.contains(where: { "[]{}".contains($0) }) { words.append("--globoff") }
        words.append(ShellWord.quoted(url))
        for field in masking.headers(request.headers) where !isSetByCurl(field.name) {
            let line = field.value.isEmpty ? "\(field.name);" : "\(field.name): \(field.value)"
            words.append("--header \(ShellWord.quoted(line))")
        }
        for name in curlDefaultsToRemove { words.append("--header \(ShellWord.quoted(name + ":"))") }
        switch request.body {
        case .none:
            break
        case .data(let sent):
            let data = masking.bytes(sent)
            if let text = String(data: data, encoding: .utf8), Self.isPlainText(text), !text.hasPrefix("@") {
                words.append("--data-binary \(ShellWord.quoted(text))")
            } else {
                input = ShellWord.printf(data)
                words.append("--data-binary @-")
            }
        case .file(let file):
            words.append("--data-binary \(ShellWord.quoted("@" + masking.text(file.path)))")
        case .stream:
            // The sequence cannot be read without sending it; the command reads the body from its standard input.
            words.append("--data-binary @-")
        case .multipart(let body):
            for part in body.parts {
                let file = "$parts/\(prelude.count + 1)"
                let option = CurlFormOption(part: masking.part(part), file: file)
                if let content = option.fileContent { prelude.append("\(ShellWord.printf(content)) > \"\(file)\"") }
                words.append(option.words.map(\.rendered).joined(separator: " "))
            }
        }
        var line = words.joined(separator: " \\\n  ")
        if let input { line = "\(input) | \(line)" }
        guard !prelude.isEmpty else { return line }
        return (["parts=$(mktemp -d)"] + prelude + [line]).joined(separator: " &&\n") + "\nrm -r \"$parts\""
    }

    /// Why no command line can send this request as Errand would, or `nil`.
    private var problem: String? {
        do {
            try URLSecurity.check(request.headers)
        } catch {
            return "one of its header fields is one Errand refuses to send (a name that is not a token, or a line "
                + "break or NUL in a value)"
        }
        if !request.method.rawValue.utf8.allSatisfy({ $0 > 0x20 && $0 < 0x7F }) {
            return "its method is not a token"
        }
        guard case .multipart(let body) = request.body else { return nil }
        if body.problem != nil { return "its multipart body is one Errand refuses to send" }
        for (index, part) in body.parts.enumerated() {
            if let problem = CurlFormOption.problem(with: part, index: index) { return problem }
        }
        return nil
    }

    /// A command that sends nothing: it says why on stderr and fails, in every shell.
    private static func refusal(_ reason: String) -> String {
        "echo \(ShellWord.quoted("curl cannot send this request as Errand does: \(reason)."))" + " >&2\nfalse"
    }

    /// Fields curl sets itself from the body it sends: a multipart type names curl's boundary, not Errand's.
    private func isSetByCurl(_ name: String) -> Bool {
        let lowered = name.lowercased()
        if lowered == "content-length" || lowered == "transfer-encoding" { return true }
        if case .multipart = request.body, lowered == "content-type" { return true }
        return false
    }

    /// The header fields curl would send of its own accord that this request does not: `Name:` removes each.
    private var curlDefaultsToRemove: [String] {
        var names = ["Accept", "User-Agent"]
        if request.body != .none {
            names.append("Expect")
            // For --data-binary curl would say the body is a form; a multipart type is curl's own either way.
            if case .multipart = request.body {} else { names.append("Content-Type") }
        }
        return names.filter { !request.headers.contains($0) }
    }

    /// Text a shell and a terminal take as it is: no character ``ShellWord`` would have to escape.
    private static func isPlainText(_ text: String) -> Bool {
        !text.unicodeScalars.contains(where: ShellWord.needsEscape)
    }

    /// A `printf` that writes exactly `data`; see ``ShellWord/printf(_:)``.
    static func printf(_ data: Data) -> String { ShellWord.printf(data) }

    /// A word in single quotes, unless it is plain; see ``ShellWord``.
    static func quoted(_ word: String) -> String { ShellWord.quoted(word) }
}
