import Foundation

/// Turns an `Encodable` value into query items or form fields, in the order its `encode(to:)` writes them.
///
/// ```swift
/// struct Search: Encodable { var q: String; var tags: [String]; var page: Page?; struct Page: Encodable { var size: Int } }
/// let items = try QueryEncoder().encode(Search(q: "mac & cheese", tags: ["a", "b"], page: .init(size: 20)))
/// // q=mac%20%26%20cheese&tags%5B%5D=a&tags%5B%5D=b&page%5Bsize%5D=20 once in a URL
/// ```
///
/// The convention for nested values, that of Rails, PHP and Alamofire: a property of a nested value is
/// `parent[child]`, and an array's elements are `name[]` each (``ArrayEncoding``). `nil` and absent optionals send
/// nothing; `true`/`false` are written as words, numbers as Swift prints them, dates in ISO 8601 with seconds
/// (`2026-12-02T03:00:00Z`), URLs as their absolute string and `Data` as base64. Names and values stay unencoded
/// here: the URL builder and `RequestBody.form(_:)` encode both by RFC 3986, as for any
/// ``QueryItem``, so `[` and `]` travel as `%5B` and `%5D`.
public struct QueryEncoder: Sendable {
    /// How an array's elements are named.
    public enum ArrayEncoding: Sendable, Hashable {
        /// `tags[]=a&tags[]=b` (the default).
        case brackets
        /// `tags=a&tags=b`, which many APIs read as a list.
        case repeated
        /// `tags[0]=a&tags[1]=b`.
        case indexed
    }

    /// How an array's elements are named.
    public var arrayEncoding: ArrayEncoding

    /// Creates an encoder.
    public init(arrayEncoding: ArrayEncoding = .brackets) {
        self.arrayEncoding = arrayEncoding
    }

    /// The query items of a value whose top level is keyed (a struct or a dictionary with string keys).
    ///
    /// - Throws: ``ErrandError/invalidRequest(_:)`` when the value is not keyed at its top level or its
    ///   `encode(to:)` throws.
    public func encode<Value: Encodable>(_ value: Value) throws(ErrandError) -> [QueryItem] {
        let sink = QueryItemSink(arrayEncoding: arrayEncoding)
        do {
            try QueryValueEncoder(name: nil, sink: sink).encodeValue(value)
        } catch {
            throw .invalidRequest("the query of \(Value.self) could not be encoded: \(error)")
        }
        return sink.items
    }
}
