import Foundation

extension HTTPCache {
    /// What one request needs from the cache, worked out once.
    struct Lookup: Sendable {
        private(set) var request: TransportRequest
        let key: String
        let policy: CachePolicy
        let ttl: TimeInterval?
        let requestControl: CacheControl
        /// Whether the request manages validation itself, and so goes to the network unchanged.
        let bypassesCache: Bool
        /// The request's `Range` field, answered from a stored complete response when one may be used.
        private(set) var range: String?
        /// The client's clock: its date is the cache's now.
        let timeline: Timeline
        let started = ContinuousClock.now

        init(request: TransportRequest, configuration: Configuration, timeline: Timeline) {
            self.request = request
            self.timeline = timeline
            key = CacheKey.primary(request.url)
            policy = request.options.cachePolicy ?? configuration.policy
            ttl = (request.options.cacheTTL ?? configuration.defaultTTL).map { $0 / .seconds(1) }
            // One pass over the request's fields; names are compared by length first, so most are never lower-cased.
            var cacheControl: [String] = []
            var pragmaNoCache = false
            var bypasses = false
            var range: String?
            for field in request.headers {
                switch field.name.utf8.count {
                case 5, 6, 8, 13, 17, 19: break  // the lengths of the names below
                default: continue
                }
                switch field.name.lowercased() {
                case "cache-control": cacheControl.append(field.value)
                case "pragma": pragmaNoCache = pragmaNoCache || field.value.lowercased().contains("no-cache")
                case "range": range = range == nil ? field.value : ""
                case "if-none-match", "if-modified-since", "if-match", "if-unmodified-since", "if-range":
                    bypasses = true
                default: break
                }
            }
            var control = CacheControl(values: cacheControl)
            // `Pragma: no-cache` from HTTP/1.0 clients means `Cache-Control: no-cache`, unless that field is there
            // (RFC 9111 §5.4).
            if pragmaNoCache, cacheControl.isEmpty { control.noCache = true }
            if let options = request.options.cacheControl { control = options.merged(into: control) }
            requestControl = control
            bypassesCache = bypasses
            self.range = range
        }

        /// Makes this the lookup of the whole representation: no `Range` field, no range to answer.
        mutating func dropRange() {
            request.headers.remove("Range")
            range = nil
        }
    }
}
