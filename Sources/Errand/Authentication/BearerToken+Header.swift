extension HTTPHeaders.Field {
    /// `Authorization: Bearer <token>` (RFC 6750).
    public static func authorization(bearerToken token: String) -> HTTPHeaders.Field {
        HTTPHeaders.Field(name: "Authorization", value: "Bearer " + token)
    }
}

extension Request {
    /// A copy that sends `Authorization: Bearer <token>`, replacing any `Authorization` it had and the client's.
    ///
    /// ```swift
    /// let me = try await client.send(Request<Profile>(path: "me").authorized(bearerToken: token))
    /// ```
    public func authorized(bearerToken token: String) -> Request {
        var copy = self
        let field = HTTPHeaders.Field.authorization(bearerToken: token)
        copy.headers[field.name] = field.value
        copy.secrets.headerNames.insert(field.name)
        return copy
    }
}
