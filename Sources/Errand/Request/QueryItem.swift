/// One query parameter. Order is the caller's: ``Request/query`` keeps items exactly as given.
public struct QueryItem: Sendable, Hashable {
    /// The parameter name, unencoded.
    public var name: String
    /// The parameter value, unencoded; `nil` sends the name alone (`?flag`).
    public var value: String?

    /// Creates a query item. Both parts are percent-encoded when the URL is built.
    public init(_ name: String, _ value: String?) {
        self.name = name
        self.value = value
    }
}
