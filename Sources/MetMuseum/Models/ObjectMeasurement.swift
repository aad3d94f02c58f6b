/// One measured element of an object (the Met's `measurements`), in centimetres and kilograms.
///
/// Keys and shape are the Met's: `{"elementName","elementDescription","elementMeasurements":{"Height":65.1}}`.
public struct ObjectMeasurement: Codable, Sendable, Hashable {
    /// What was measured, as `Overall`, `Frame`, `Sheet`.
    public var elementName: String?
    /// A note on the element, often absent.
    public var elementDescription: String?
    /// Each dimension's value by name (`Height`, `Width`, `Depth`, `Diameter`, `Length`, `Weight`).
    public var elementMeasurements: [String: Double]

    /// Creates a measurement.
    public init(
        elementName: String? = nil, elementDescription: String? = nil, elementMeasurements: [String: Double] = [:]
    ) {
        self.elementName = elementName
        self.elementDescription = elementDescription
        self.elementMeasurements = elementMeasurements
    }

    /// Decodes the Met's shape; empty strings become `nil`, a missing or `null` map an empty one.
    public init(from decoder: any Decoder) throws {
        let fields = try decoder.container(keyedBy: FieldKey.self)
        elementName = try fields.text("elementName")
        elementDescription = try fields.text("elementDescription")
        elementMeasurements =
            try fields.decodeIfPresent([String: Double].self, forKey: FieldKey("elementMeasurements")) ?? [:]

    }

    /// Encodes every key, `null` for missing values.
    public func encode(to encoder: any Encoder) throws {
        var fields = encoder.container(keyedBy: FieldKey.self)
        try fields.put(elementName, "elementName")
        try fields.put(elementDescription, "elementDescription")
        try fields.put(elementMeasurements, "elementMeasurements")
    }
}
