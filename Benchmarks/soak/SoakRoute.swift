import Errand
import Foundation

/// Where one request of the soak goes, and how it is expected to end.
enum SoakRoute: CaseIterable {
    /// `/ok/…` with a query naming the request: must succeed with its own number echoed.
    case ok
    /// One of a few shared `/ok` URLs: served from the cache most of the time.
    case shared
    /// Fails once with 503, then succeeds: retry must recover.
    case failOnce
    /// Fails once with 429 and `Retry-After: 0`, then succeeds.
    case rateLimitedOnce
    /// Always 500: retries run out.
    case serverError
    /// The connection is reset before any response.
    case reset
    /// The connection closes after 100 of 1,000 bytes.
    case closeMidBody
    /// A 200 whose JSON does not parse.
    case malformedJSON
    /// A gzip stream cut short.
    case truncatedGzip
    /// A 403 bot-protection page.
    case blocked
    /// A body over the size cap.
    case oversized
    /// A redirect to itself, forever.
    case redirectLoop
    /// Headers, then silence past the request timeout.
    case stall
    /// A body that arrives a byte at a time.
    case trickle
    /// JSON labelled `text/html`.
    case wrongContentType

    /// The fault routes, each taking an equal share of the fault rate.
    static let faults: [SoakRoute] = allCases.filter { $0 != .ok && $0 != .shared }

    /// The request for the `index`-th send.
    func request(index: Int) -> Request<SoakReply> {
        let key = "soak-\(index)"
        switch self {
        case .ok: return Request(segments: ["ok", key], query: [QueryItem("i", String(index))])
        case .shared: return Request(segments: ["ok", "soak-shared-\(index % 8)"])
        case .failOnce: return Request(segments: ["fail", key, "1", "503"])
        case .rateLimitedOnce:
            return Request(segments: ["fail", key, "1", "429"], query: [QueryItem("retry_after", "0")])
        case .serverError: return Request(segments: ["status", key, "500"])
        case .reset: return Request(segments: ["reset", key])
        case .closeMidBody: return Request(segments: ["close-mid-body", key])
        case .malformedJSON: return Request(segments: ["malformed-json", key])
        case .truncatedGzip: return Request(segments: ["truncated-gzip", key])
        case .blocked: return Request(segments: ["blocked", key])
        case .oversized: return Request(segments: ["oversized", key], query: [QueryItem("bytes", "1500000")])
        case .redirectLoop: return Request(segments: ["redirect-loop", key])
        case .stall: return Request(segments: ["stall", key], query: [QueryItem("seconds", "2")])
        case .trickle:
            return Request(
                segments: ["trickle", key], query: [QueryItem("bytes", "20"), QueryItem("interval_ms", "5")])
        case .wrongContentType: return Request(segments: ["wrong-content-type", key])
        }
    }
}

/// What the fault server's JSON routes answer; only the fields the soak checks.
struct SoakReply: Decodable, Sendable {
    /// The key of the path.
    var key: String?
    /// The query parameters the server saw.
    var query: [String: String]?
}
