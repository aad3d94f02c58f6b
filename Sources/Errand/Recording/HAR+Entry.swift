import Foundation

extension HAR {
    /// One exchange: a request, its response, and how long each phase took.
    public struct Entry: Codable, Sendable, Hashable {
        /// When the request began, as ISO 8601 with milliseconds.
        public var startedDateTime: String
        /// The whole exchange in milliseconds.
        public var time: Double
        /// The request.
        public var request: Request
        /// The response; a failed exchange has status 0 and `_error` says why.
        public var response: Response
        /// The HAR cache object; Errand's own account of the cache is `_errandCache`.
        public var cache: Cache
        /// The phases, in milliseconds (-1 where not measured).
        public var timings: Timings
        /// The server's IP address, where the transport reported it.
        public var serverIPAddress: String?
        /// Which connection carried the exchange, where the transport reported it: Errand writes the connection's
        /// local port, as the spec allows, so entries with the same value and server address shared one connection.
        public var connection: String?
        /// A note (what was left out of the entry, say).
        public var comment: String?
        /// How Errand's cache took part: `hit`, `miss`, `revalidated`, `stale`, … (Errand's own field).
        public var errandCache: String?
        /// Which attempt of the request this was, when it was a retry (Errand's own field).
        public var errandAttempt: Int?
        /// Why the exchange failed, when it did (Errand's own field).
        public var errandError: String?

        enum CodingKeys: String, CodingKey {
            case startedDateTime, time, request, response, cache, timings, serverIPAddress, connection, comment
            case errandCache = "_errandCache"
            case errandAttempt = "_errandAttempt"
            case errandError = "_error"
        }

        /// Creates an entry.
        public init(
            startedDateTime: String, time: Double, request: Request, response: Response, cache: Cache = Cache(),
            timings: Timings, serverIPAddress: String? = nil, comment: String? = nil, connection: String? = nil
        ) {
            self.startedDateTime = startedDateTime
            self.time = time
            self.request = request
            self.response = response
            self.cache = cache
            self.timings = timings
            self.serverIPAddress = serverIPAddress
            self.connection = connection
            self.comment = comment
        }
    }

    /// What was sent.
    public struct Request: Codable, Sendable, Hashable {
        /// The method.
        public var method: String
        /// The absolute URL.
        public var url: String
        /// `HTTP/1.1`, `HTTP/2`, or `unknown`.
        public var httpVersion: String
        /// The cookies the `Cookie` header carried.
        public var cookies: [Pair]
        /// The header fields.
        public var headers: [Pair]
        /// The query parameters, decoded.
        public var queryString: [Pair]
        /// The body, when there was one.
        public var postData: PostData?
        /// Bytes of the header block, -1 when not known.
        public var headersSize: Int
        /// Bytes of the body, -1 when not known.
        public var bodySize: Int

        /// Creates a request.
        public init(
            method: String, url: String, httpVersion: String = "unknown", cookies: [Pair] = [], headers: [Pair],
            queryString: [Pair] = [], postData: PostData? = nil, headersSize: Int = -1, bodySize: Int
        ) {
            self.method = method
            self.url = url
            self.httpVersion = httpVersion
            self.cookies = cookies
            self.headers = headers
            self.queryString = queryString
            self.postData = postData
            self.headersSize = headersSize
            self.bodySize = bodySize
        }
    }

    /// A request body.
    public struct PostData: Codable, Sendable, Hashable {
        /// Its `Content-Type`.
        public var mimeType: String
        /// The body as text; bytes that are not UTF-8 are base64, with ``encoding`` `base64`.
        public var text: String?
        /// `base64` when ``text`` is base64: `_encoding` in the file, since HAR gives the field only to a response's
        /// content.
        public var encoding: String?
        /// Form fields, as browsers fill them for a form body.
        public var params: [Param]?
        /// A note (the body was truncated, or streamed from a file).
        public var comment: String?

        enum CodingKeys: String, CodingKey {
            case mimeType, text, params, comment
            case encoding = "_encoding"
        }

        /// Creates a body.
        public init(mimeType: String, text: String?, encoding: String? = nil, comment: String? = nil) {
            self.mimeType = mimeType
            self.text = text
            self.encoding = encoding
            self.comment = comment
        }
    }

    /// A form field of a posted body.
    public struct Param: Codable, Sendable, Hashable {
        /// The name.
        public var name: String
        /// The value, for a field.
        public var value: String?
        /// The file name, for a file.
        public var fileName: String?
        /// The file's type, for a file.
        public var contentType: String?
    }

    /// What came back.
    public struct Response: Codable, Sendable, Hashable {
        /// The status; 0 when no response arrived.
        public var status: Int
        /// The reason phrase (Errand writes the standard one).
        public var statusText: String
        /// `HTTP/1.1`, `HTTP/2`, or `unknown`.
        public var httpVersion: String
        /// The cookies `Set-Cookie` set.
        public var cookies: [Pair]
        /// The header fields.
        public var headers: [Pair]
        /// The body.
        public var content: Content
        /// The `Location` of a redirect, else empty.
        public var redirectURL: String
        /// Bytes of the header block, -1 when not known.
        public var headersSize: Int
        /// Bytes of the body as received, -1 when not known.
        public var bodySize: Int

        /// Creates a response.
        public init(
            status: Int, statusText: String, httpVersion: String = "unknown", cookies: [Pair] = [], headers: [Pair],
            content: Content, redirectURL: String = "", headersSize: Int = -1, bodySize: Int
        ) {
            self.status = status
            self.statusText = statusText
            self.httpVersion = httpVersion
            self.cookies = cookies
            self.headers = headers
            self.content = content
            self.redirectURL = redirectURL
            self.headersSize = headersSize
            self.bodySize = bodySize
        }
    }

    /// A response body.
    public struct Content: Codable, Sendable, Hashable {
        /// Bytes of the body after decoding.
        public var size: Int
        /// Bytes saved by compression, when known.
        public var compression: Int?
        /// Its `Content-Type`.
        public var mimeType: String
        /// The body, as text or base64; absent when it was not kept (a streamed body).
        public var text: String?
        /// `base64` when ``text`` is base64.
        public var encoding: String?
        /// A note (the body was truncated, or not kept).
        public var comment: String?

        /// Creates a body.
        public init(
            size: Int, mimeType: String, text: String? = nil, encoding: String? = nil, comment: String? = nil
        ) {
            self.size = size
            self.mimeType = mimeType
            self.text = text
            self.encoding = encoding
            self.comment = comment
        }
    }

    /// The HAR cache object; Errand leaves it empty and says what its own cache did in `_errandCache`.
    public struct Cache: Codable, Sendable, Hashable {
        /// A note.
        public var comment: String?

        /// Creates an empty cache object.
        public init(comment: String? = nil) { self.comment = comment }
    }

    /// The phases of an exchange in milliseconds; -1 for a phase not measured or that did not happen.
    public struct Timings: Codable, Sendable, Hashable {
        /// Waiting for a connection.
        public var blocked: Double?
        /// Resolving the name.
        public var dns: Double?
        /// Connecting, TLS included (as the spec counts it).
        public var connect: Double?
        /// The TLS handshake.
        public var ssl: Double?
        /// Sending the request.
        public var send: Double
        /// Waiting for the first byte.
        public var wait: Double
        /// Reading the response.
        public var receive: Double

        /// Creates timings.
        public init(
            blocked: Double? = -1, dns: Double? = -1, connect: Double? = -1, ssl: Double? = -1, send: Double,
            wait: Double, receive: Double
        ) {
            self.blocked = blocked
            self.dns = dns
            self.connect = connect
            self.ssl = ssl
            self.send = send
            self.wait = wait
            self.receive = receive
        }
    }
}
