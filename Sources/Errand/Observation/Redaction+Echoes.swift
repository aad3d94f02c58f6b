import Foundation

extension Redaction {
    /// These rules with the secrets a request carries added as secret values: the values of its secret header fields
    /// (an `Authorization` credential with and without its scheme, each cookie of `Cookie`) and of its secret query
    /// names. A body masked with them hides an echo of the request's secrets (an error page, or a server such as
    /// httpbin that returns what it was sent), which the rules alone, naming fields rather than values, cannot.
    ///
    /// Values shorter than four characters are left out: masked wherever they occur, they would garble the body.
    func including(secretsOf request: TransportRequest) -> Redaction {
        var values: [String] = []
        for field in request.headers.fields where isSecret(header: field.name) {
            values.append(field.value)
            // `Bearer TOKEN`, `Basic CREDENTIALS`: the credential alone is what a body would quote.
            if let space = field.value.firstIndex(of: " ") {
                values.append(String(field.value[field.value.index(after: space)...]))
            }
            // `Cookie: a=1; b=2` and `Set-Cookie`-like lists: each value.
            for crumb in field.value.split(separator: ";") {
                if let equals = crumb.firstIndex(of: "=") {
                    values.append(String(crumb[crumb.index(after: equals)...]))
                }
            }
        }
        if !queryNames.isEmpty, let items = URLComponents(url: request.url, resolvingAgainstBaseURL: true)?.queryItems {
            values += items.filter { isSecret(queryName: $0.name) }.compactMap(\.value)
        }
        var rules = self
        rules.pathSegments.formUnion(
            values.map { $0.trimmingCharacters(in: .whitespaces) }.filter { $0.count >= 4 && $0 != Self.mask })
        return rules
    }

    /// Response fields with these rules' secret values masked wherever they occur in a value: a server that quotes
    /// the cookie or key it was sent in a field of its own (`X-Cookie-Received`, say). Fields with secret names are
    /// masked whole by ``redact(_:)-(HTTPHeaders)`` first.
    func maskingEchoes(in headers: HTTPHeaders) -> HTTPHeaders {
        let named = redact(headers)
        guard !pathSegments.isEmpty || !queryNames.isEmpty else { return named }
        return HTTPHeaders(named.fields.map { .init(name: $0.name, value: redact(text: $0.value)) })
    }
}

extension Redaction {
    /// `input` as a user wrote it (a proxy, a server address, any argument), with whatever could be the credentials
    /// of a URL in it masked: for a message that echoes input that may not parse.
    ///
    /// Input that does not parse cannot be trusted to say where its credentials end, so this reads it the widest
    /// way: the authority starts after `scheme://` (a scheme of letters, digits, `+`, `-` and `.`), after a leading
    /// `//`, or else at the start (`user:password@host`, and `user:PRO://SECRET@host`, whose `user:PRO` is no
    /// scheme); it runs past the first `@` to the next `/`, `?` or `#`; and everything before its last `@` is masked,
    /// `%40` counting as an `@`. A path that holds an `@` is masked along with the host: more is hidden, never less.
    ///
    /// ```swift
    /// Redaction.maskingCredentials(in: "user:PRO://SECRET@proxy:3128")   // "***@proxy:3128"
    /// Redaction.maskingCredentials(in: "socks5://u:p%40ss@proxy:1080")  // "socks5://***@proxy:1080"
    /// ```
    public static func maskingCredentials(in input: String) -> String {
        let start = authorityStart(in: input)
        let rest = input[start...]
        guard let first = separators(in: rest).first else { return input }
        let end = rest[first.upperBound...].firstIndex(where: { "/?#".contains($0) }) ?? rest.endIndex
        guard let last = separators(in: rest[..<end]).last, start < last.lowerBound else { return input }
        return input[..<start] + mask + input[last.lowerBound...]
    }

    /// Where the authority of text written as a URL starts: after `scheme://`, after a leading `//`, or at the start.
    private static func authorityStart(in text: String) -> String.Index {
        if text.hasPrefix("//") { return text.index(text.startIndex, offsetBy: 2) }
        return authorityAfterScheme(in: text) ?? text.startIndex
    }

    /// Where the authority starts when the text starts with a scheme (a letter, then letters, digits, `+`, `-` or
    /// `.`) and `://`; `nil` for text without one (`user:PRO://SECRET@host` has none: `user:PRO` is no scheme).
    static func authorityAfterScheme(in text: String) -> String.Index? {
        guard let marker = text.range(of: "://") else { return nil }
        let scheme = text[..<marker.lowerBound]
        guard let initial = scheme.first, initial.isASCII, initial.isLetter,
            scheme.allSatisfy({ $0.isASCII && ($0.isLetter || $0.isNumber || "+-.".contains($0)) })
        else { return nil }
        return marker.upperBound
    }

    /// The ranges of every `@` and `%40` (in any case) in `text`, in order.
    private static func separators(in text: Substring) -> [Range<String.Index>] {
        var found: [Range<String.Index>] = []
        var index = text.startIndex
        while index < text.endIndex {
            if text[index] == "@" {
                found.append(index..<text.index(after: index))
            } else if text[index] == "%", let end = text.index(index, offsetBy: 3, limitedBy: text.endIndex),
                text[index..<end].uppercased() == "%40"
            {
                found.append(index..<end)
                index = end
                continue
            }
            index = text.index(after: index)
        }
        return found
    }

    /// Free text with the user and password of every `scheme://user:password@host` URL in it masked: a message that
    /// quotes a URL it could not use. In running text a URL ends at white space or a quote, and its authority, read
    /// as URL parsers read it, at the first `/`, `?` or `#`; the part before the authority's last `@` is masked.
    static func maskingURLCredentials(inText text: String) -> String {
        guard text.contains("@"), text.contains("://") else { return text }
        let ends: Set<Character> = [" ", "\t", "\n", "\r", "\"", "'", "<", ">", "`"]
        var result = ""
        var rest = Substring(text)
        while let marker = rest.range(of: "://") {
            let authority = rest[marker.upperBound...]
            let end = authority.firstIndex(where: { ends.contains($0) || "/?#".contains($0) }) ?? authority.endIndex
            result += rest[..<marker.upperBound]
            if let at = authority[..<end].lastIndex(of: "@"), at > authority.startIndex {
                result += mask
                rest = authority[at...]
            } else {
                rest = authority
            }
        }
        return result + rest
    }
}
