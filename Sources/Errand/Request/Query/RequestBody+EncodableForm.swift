extension RequestBody {
    /// An `Encodable` value as form fields, `application/x-www-form-urlencoded`, named and ordered as
    /// ``QueryEncoder`` does and RFC 3986-encoded like every form.
    ///
    /// - Throws: ``ErrandError/invalidRequest(_:)`` when the value cannot be a form (see ``QueryEncoder/encode(_:)``).
    public static func form<Value: Encodable>(
        encoding value: Value, with encoder: QueryEncoder = QueryEncoder()
    ) throws(ErrandError) -> RequestBody {
        .form(try encoder.encode(value))
    }
}
