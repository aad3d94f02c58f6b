import Foundation

/// Sends typed requests: builds the URL, runs the middleware chain and the transport, checks the status, decodes.
///
/// An `APIClient` is a value that can be shared freely between tasks and actors. Decoding runs on the cooperative
/// pool, never on the caller's actor.
///
/// ```swift
/// let client = APIClient(baseURL: URL(string: "https://www.themealdb.com/api/json/v1/1")!)
/// let meals = try await client.send(Request<MealList>(path: "search.php", query: [QueryItem("s", "pasta")])).value
/// ```
public struct APIClient: Sendable {
    /// The client's configuration.
    public let configuration: ClientConfiguration

    /// Whether requests relative to the base URL may be sent, decided once: the scheme and host come from it.
    private let baseURLRefusal: ErrandError?
    /// The base URL checked and reduced to the text request paths are appended to, once.
    private let base: Result<URLBuilder.Base, ErrandError>
    /// Whether every configured header passed the header check, decided once: then only a
    /// request's own headers need checking.
    private let configuredHeadersAreValid: Bool
    /// The middleware chain ending in the redirect follower and the transport, built once.
    let pipeline: Middleware.Next
    /// The configured redirect policy with the plain-http rule of this client's base URL: the one every request and
    /// every hop it follows obey.
    private let redirects: RedirectPolicy

    /// Creates a client.
    public init(configuration: ClientConfiguration) {
        self.configuration = configuration
        let plainHTTP = PlainHTTPPolicy(
            baseURL: configuration.baseURL, allowsInsecureHTTP: configuration.allowsInsecureHTTP)
        var redirects = configuration.redirects
        redirects.plainHTTP = plainHTTP
        self.redirects = redirects
        do {
            try URLSecurity.check(configuration.baseURL, plainHTTP: plainHTTP)
            self.baseURLRefusal = nil
        } catch {
            self.baseURLRefusal = error
        }
        self.base = URLBuilder.Base.make(configuration.baseURL)
        self.configuredHeadersAreValid = (try? URLSecurity.check(configuration.headers)) != nil
        self.pipeline = Self.makePipeline(configuration)
    }

    /// Creates a client with the default configuration for a base URL.
    public init(baseURL: URL) {
        self.init(configuration: ClientConfiguration(baseURL: baseURL))
    }

    // MARK: Sending

    /// Sends a request and decodes the JSON body into `Value`.
    public func send<Value: Decodable & Sendable>(_ request: Request<Value>) async throws(ErrandError) -> Response<
        Value
    > {
        let decoder = configuration.decoder
        return try await send(request) { response throws(ErrandError) in
            do {
                return try decoder.decode(Value.self, from: response.body)
            } catch {
                throw .decoding(
                    DecodingFailure(
                        decoding: Value.self, error: error, body: response.body,
                        contentType: response.headers["Content-Type"]))
            }
        }
    }

    /// Sends a request and returns the raw body.
    public func send(_ request: Request<Data>) async throws(ErrandError) -> Response<Data> {
        try await send(request) { response throws(ErrandError) in response.body }
    }

    /// Sends a request and returns the body as text, decoded with the charset the response names (UTF-8 by default).
    public func send(_ request: Request<String>) async throws(ErrandError) -> Response<String> {
        try await send(request) { response throws(ErrandError) in
            let charset = Self.charset(of: response.headers["Content-Type"])
            if charset == "iso-8859-1" || charset == "latin1" {
                return String(decoding: response.body.map { UInt16($0) }, as: UTF16.self)
            }
            return String(decoding: response.body, as: UTF8.self)
        }
    }

    /// Sends a request and ignores the body; the response (status, headers, metrics) may be ignored too.
    @discardableResult
    public func send(_ request: Request<Void>) async throws(ErrandError) -> Response<Void> {
        try await send(request) { _ throws(ErrandError) in () }
    }

    /// Sends a request and streams the body. The status is checked before the stream is returned.
    ///
    /// The request goes through the middleware chain like every other (authentication, keys, limits, retries before
    /// the head arrives, observers); a concurrency limit's slot is held until the body ends or the stream is dropped.
    /// The cache and coalescing pass streams through.
    public func stream(_ request: Request<Data>) async throws(ErrandError) -> StreamingResponse {
        let response = try await open(request, delivery: .streamed)
        return StreamingResponse(
            status: response.status, headers: response.headers, url: response.url,
            body: response.bodyStream ?? ByteStream(buffered: response.body))
    }

    // MARK: Building

    /// Builds the transport request: URL, merged headers, body, timeouts, limits. Checks URL and header security.
    public func makeTransportRequest<Value>(_ request: Request<Value>) throws(ErrandError) -> TransportRequest {
        let url = try makeURL(request)
        if case .url = request.target {
            try URLSecurity.check(url, plainHTTP: redirects.plainHTTP)
        } else {
            if let baseURLRefusal { throw baseURLRefusal }
        }
        var headers = configuration.headers.merging(request.headers)
        // The configured headers were checked once; a request's own headers and a body's Content-Type are checked
        // here. The merged whole is checked only when a configured header is invalid, for the same error as always.
        var checkedHeaders = configuredHeadersAreValid ? request.headers : headers
        var body = TransportBody.none
        if let requestBody = request.body {
            switch requestBody.content {
            case .data(let data):
                body = .data(data)
            case .file(let file):
                body = .file(file)
            case .multipart(let multipart):
                if let problem = multipart.problem { throw .invalidRequest(problem) }
                body = .multipart(multipart)
                // Only the body's own type names its boundary; any other would make the parts unreadable.
                headers["Content-Type"] = multipart.contentType
                checkedHeaders = headers
            case .stream(let stream):
                if let length = stream.length, length < 0 {
                    throw .invalidRequest("the streamed body declares a negative length (\(length)).")
                }
                body = .stream(stream)
            case .json(let json):
                do {
                    body = .data(try json.data(using: configuration.encoder))
                } catch {
                    throw .invalidRequest("the body could not be encoded as JSON (\(error)).")
                }
            }
            if let contentType = requestBody.contentType, !headers.contains("Content-Type") {
                headers["Content-Type"] = contentType
                checkedHeaders = headers
            }
        }
        try URLSecurity.check(checkedHeaders)
        return TransportRequest(
            method: request.method, url: url, headers: headers, body: body,
            timeouts: Timeouts(connect: configuration.connectTimeout, total: request.timeout ?? configuration.timeout)
                .clamped,
            maxResponseBodySize: configuration.maxResponseBodySize, redirects: redirects,
            options: request.options)
    }

    /// The full URL a request goes to.
    public func makeURL<Value>(_ request: Request<Value>) throws(ErrandError) -> URL {
        switch request.target {
        case .path(let path):
            return try base.get().url(path: path, query: request.query)
        case .segments(let segments):
            return try base.get().url(segments: segments, query: request.query)
        case .url(let url):
            guard !request.query.isEmpty else { return url }
            guard var components = URLComponents(url: url, resolvingAgainstBaseURL: true) else {
                throw .invalidURL("\(url.absoluteString) is not a valid URL.")
            }
            let extra = URLBuilder.encodeQuery(request.query)
            components.percentEncodedQuery = [components.percentEncodedQuery, extra].compactMap { $0 }.joined(
                separator: "&")
            guard let result = components.url else { throw .invalidURL("\(url.absoluteString) is not a valid URL.") }
            return result
        }
    }

    private static func charset(of contentType: String?) -> String? {
        guard let contentType else { return nil }
        for parameter in contentType.split(separator: ";").dropFirst() {
            let pair = parameter.split(separator: "=", maxSplits: 1).map { $0.trimmingCharacters(in: .whitespaces) }
            if pair.count == 2, pair[0].lowercased() == "charset" {
                return pair[1].trimmingCharacters(in: CharacterSet(charactersIn: "\"")).lowercased()
            }
        }
        return nil
    }
}
