/// A model built from one raw object of TheMealDB's API.
protocol APIRepresentable: Sendable {
    /// Builds the model from the raw fields; throws a `DecodingError` when a required field is missing.
    init(api record: APIRecord) throws
}

/// TheMealDB's envelope, `{"meals": [...]}` or `{"categories": [...]}`, as a list of models.
///
/// The service answers `{"meals": null}` when nothing matches (an unknown id, a search without results): that is an
/// empty list here, never an error. A body without either key is not a TheMealDB answer and fails to decode.
struct APIList<Item: APIRepresentable>: Decodable, Sendable {
    /// The models, in the service's order.
    let items: [Item]

    init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: FieldKey.self)
        guard let key = [FieldKey("meals"), FieldKey("categories")].first(where: container.contains) else {
            throw DecodingError.keyNotFound(
                FieldKey("meals"),
                DecodingError.Context(
                    codingPath: decoder.codingPath,
                    debugDescription: "The body has neither \"meals\" nor \"categories\"."))
        }
        if try container.decodeNil(forKey: key) {
            items = []
            return
        }
        var array = try container.nestedUnkeyedContainer(forKey: key)
        var items: [Item] = []
        while !array.isAtEnd {
            items.append(try Item(api: array.decode(APIRecord.self)))
        }
        self.items = items
    }
}
