/// A curatorial department of the museum, as `departments` lists it.
public struct Department: Codable, Sendable, Hashable, Identifiable {
    /// The ID to filter by (`departmentId` in searches, `departmentIds` in the object list).
    public var id: Int
    /// The department's name, as `European Paintings`.
    public var displayName: String

    /// Creates a department.
    public init(id: Int, displayName: String) {
        self.id = id
        self.displayName = displayName
    }

    private enum CodingKeys: String, CodingKey {
        case id = "departmentId"
        case displayName
    }
}

/// The body of `departments`: `{"departments":[…]}`.
struct DepartmentList: Decodable, Sendable {
    var departments: [Department]
}
