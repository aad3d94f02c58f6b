import Foundation

extension ErrandError: DescribedError {
    /// One sentence fit to show an end user: what happened, without technical detail, in
    /// ``Localization/language``.
    public var userMessage: String { userMessage(in: Localization.language) }

    /// The sentence of ``userMessage`` in a language of ``Localization/shippedLanguages`` (`"de"`), English for any
    /// other; an app's ``Localization/overrides`` apply.
    public func userMessage(in language: String) -> String {
        let (key, values) = sentenceKey
        return Localization.sentence(key, in: .module, language: language, values: values)
    }

    /// The key of the user's sentence in the string tables, and the values of its placeholders.
    private var sentenceKey: (String, [String: String]) {
        switch self {
        case .invalidURL: return ("error.invalidURL", [:])
        case .insecureURL(let url):
            guard let host = url.host else { return ("error.insecureURL.noHost", [:]) }
            return ("error.insecureURL", ["host": host])
        case .invalidRequest(let reason):
            return ("error.invalidRequest", ["reason": reason + (reason.hasSuffix(".") ? "" : ".")])
        case .transport(let failure):
            if failure.kind == .notRecorded {
                let reason =
                    failure.underlying.hasSuffix(".") ? failure.underlying.dropLast() : Substring(failure.underlying)
                return ("error.transport.notRecorded", ["reason": String(reason)])
            }
            return ("error.transport.\(failure.kind.rawValue)", [:])
        case .unacceptableStatus(let failure):
            let values = ["status": String(failure.status)]
            switch failure.status {
            case 404: return ("error.status.notFound", values)
            case 401, 403: return ("error.status.refused", values)
            case 407: return ("error.status.proxyRefused", values)
            case 429: return ("error.status.tooManyRequests", values)
            case 500...599: return ("error.status.server", values)
            default: return ("error.status.unexpected", values)
            }
        case .blocked: return ("error.blocked", [:])
        case .decoding(let failure): return (failure.isHTML ? "error.decoding.webPage" : "error.decoding", [:])
        case .bodyTooLarge(let limit):
            let size = ByteCountFormatter.string(fromByteCount: Int64(limit), countStyle: .decimal)
            return ("error.bodyTooLarge", ["limit": size])
        case .notCached:
            // The URL is for the log (debugDescription), not for the user.
            return ("error.notCached", [:])
        case .cancelled: return ("error.cancelled", [:])
        case .app: return ("error.app", [:])
        }
    }

    /// Everything a developer needs: the kind, the URL, the status, headers and body excerpt, the underlying error.
    public var debugDescription: String {
        switch self {
        case .invalidURL(let reason):
            return "ErrandError.invalidURL: \(reason)"
        case .insecureURL(let url):
            return "ErrandError.insecureURL: \(url.absoluteString) is plain http to a non-loopback host; "
                + "set ClientConfiguration.allowsInsecureHTTP to allow it"
        case .invalidRequest(let reason):
            return "ErrandError.invalidRequest: \(reason)"
        case .transport(let failure):
            return "ErrandError.transport(\(failure.kind.rawValue)) for \(failure.url?.absoluteString ?? "?"): "
                + failure.underlying
        case .unacceptableStatus(let failure), .blocked(let failure):
            let kind = if case .blocked = self { "blocked" } else { "unacceptableStatus" }
            return "ErrandError.\(kind): HTTP \(failure.status) from \(failure.url?.absoluteString ?? "?")\n"
                + failure.headers.description + "\n\n" + failure.bodyExcerpt
        case .decoding(let failure):
            return "ErrandError.decoding: \(failure.description) (Content-Type: \(failure.contentType ?? "none"))\n"
                + failure.bodyExcerpt
        case .bodyTooLarge(let limit):
            return "ErrandError.bodyTooLarge: the body exceeded \(limit) bytes"
        case .notCached(let url):
            return "ErrandError.notCached: no usable cache entry for \(url.absoluteString)"
        case .cancelled:
            return "ErrandError.cancelled"
        case .app(let failure):
            return "ErrandError.app: the app's code threw \(failure.description)"
        }
    }

    /// Whether this is a wire failure of the given kind.
    public func isTransport(_ kind: TransportFailure.Kind) -> Bool {
        if case .transport(let failure) = self { return failure.kind == kind }
        return false
    }

    /// The HTTP status, for status failures.
    public var status: Int? {
        switch self {
        case .unacceptableStatus(let failure), .blocked(let failure): return failure.status
        default: return nil
        }
    }

    /// Maps any error to an ``ErrandError``: cancellation becomes ``cancelled``, and any other error that is not an
    /// ``ErrandError`` (one only the app's own code can have thrown) becomes ``app(_:)``, keeping it.
    public init(_ error: any Error) {
        if let error = error as? ErrandError {
            self = error
        } else if error is CancellationError {
            self = .cancelled
        } else {
            self = .app(AppFailure(error))
        }
    }
}
