import Foundation

extension ErrandError: LocalizedError, CustomStringConvertible, CustomDebugStringConvertible {
    /// One sentence fit to show an end user.
    public var errorDescription: String? { userMessage }

    /// The same sentence as ``errorDescription``.
    public var description: String { userMessage }

    /// One sentence fit to show an end user: what happened, without technical detail.
    public var userMessage: String {
        switch self {
        case .invalidURL:
            return "The address of the request is not valid."
        case .insecureURL(let url):
            return "Refused to connect to \(url.host ?? "the server") without encryption: https is required."
        case .invalidRequest(let reason):
            return "The request is not valid: \(reason)" + (reason.hasSuffix(".") ? "" : ".")
        case .transport(let failure):
            switch failure.kind {
            case .timedOut: return "The server took too long to respond."
            case .cannotConnect: return "Could not connect to the server."
            case .dnsFailure: return "The server's name could not be found. Check the address and your connection."
            case .tls: return "A secure connection to the server could not be established."
            case .connectionLost: return "The connection to the server was lost."
            case .tooManyRedirects: return "The server redirected too many times."
            case .insecureRedirect: return "The server redirected to an insecure address, which was refused."
            case .badResponse: return "The server sent a response that could not be read."
            case .other: return "The network request failed."
            case .proxy: return "The proxy refused the request. Check the proxy's address, user name and password."
            case .notRecorded:
                let reason =
                    failure.underlying.hasSuffix(".") ? failure.underlying.dropLast() : Substring(failure.underlying)
                return "The recording has no answer for this request: \(reason)."
            }
        case .unacceptableStatus(let failure):
            switch failure.status {
            case 404: return "The server has no such resource (HTTP 404)."
            case 401, 403: return "The server refused access (HTTP \(failure.status))."
            case 407: return "The proxy refused the request: it needs a valid user name and password (HTTP 407)."
            case 429: return "The server is receiving too many requests; try again later (HTTP 429)."
            case 500...599: return "The server had a problem answering (HTTP \(failure.status))."
            default: return "The server answered with an unexpected status (HTTP \(failure.status))."
            }
        case .blocked:
            return "The server blocked the request as automated traffic (HTTP 403); wait a while before trying again."
        case .decoding(let failure):
            return failure.isHTML
                ? "The server sent a web page instead of the expected data."
                : "The server's response was not in the expected format."
        case .bodyTooLarge(let limit):
            return
                "The response was larger than the limit of \(ByteCountFormatter.string(fromByteCount: Int64(limit), countStyle: .decimal))."
        case .notCached:
            // The URL is for the log (debugDescription), not for the user.
            return "This was not cached while there was a connection, so it is not available offline."
        case .cancelled:
            return "The request was cancelled."
        case .app:
            return "Something in the app went wrong while making the request."
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
