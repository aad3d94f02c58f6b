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
