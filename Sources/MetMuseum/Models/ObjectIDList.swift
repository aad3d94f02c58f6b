/// Object IDs with their count: what a search and the full object list return.
///
/// Encodes as the Met's `{"total","objectIDs":[…]}`; the Met's `"objectIDs": null` (no match) decodes as `[]`.
public struct ObjectIDList: Codable, Sendable, Hashable {
    /// How many IDs matched.
    public var total: Int
    /// The matching IDs, in the service's order.
    public var ids: [Int]

    /// Creates a list.
    public init(total: Int, ids: [Int]) {
        self.total = total
        self.ids = ids
    }

    /// Whether nothing matched.
    public var isEmpty: Bool { ids.isEmpty }

    private enum CodingKeys: String, CodingKey {
        case total
        case ids = "objectIDs"
    }

    /// Decodes the Met's shape, `null` IDs as none.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        ids = try container.decodeIfPresent([Int].self, forKey: .ids) ?? []
        total = try container.decodeIfPresent(Int.self, forKey: .total) ?? ids.count
    }

    /// Encodes both keys; `objectIDs` is always an array.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(total, forKey: .total)
        try container.encode(ids, forKey: .ids)
    }
}
