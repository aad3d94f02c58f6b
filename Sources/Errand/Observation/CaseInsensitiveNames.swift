/// A set of names that compares them without regard to case: `X-API-Key`, `x-api-key` and `X-Api-Key` are one
/// member, however a name gets in (a literal, `init(_:)`, `insert(_:)`, `formUnion(_:)`, …).
///
/// Header names are case-insensitive on the wire, and a redaction rule must match whichever spelling a request uses;
/// folding case here, in the type, rather than in each initialiser, means no way of adding a name can skip it.
/// Members are kept and listed in lower case.
///
/// ```swift
/// var names: CaseInsensitiveNames = ["X-API-Key"]
/// names.insert("apiKey")
/// names.contains("x-api-key")   // true
/// names.contains("APIKEY")      // true
/// ```
public struct CaseInsensitiveNames: SetAlgebra, Sequence, Sendable, Hashable, CustomStringConvertible {
    /// The members, each folded to lower case.
    private var folded: Set<String>

    /// An empty set.
    public init() {
        folded = []
    }

    /// A set of the names of `sequence`, case folded.
    public init<Names: Sequence>(_ sequence: Names) where Names.Element == String {
        folded = Set(sequence.lazy.map(Self.fold))
    }

    /// A set of the listed names, case folded: `["X-API-Key", "Authorization"]`.
    public init(arrayLiteral names: String...) {
        self.init(names)
    }

    /// How a name is compared: lower-cased.
    static func fold(_ name: String) -> String { name.lowercased() }

    /// The number of distinct names.
    public var count: Int { folded.count }

    /// Whether the set holds no name.
    public var isEmpty: Bool { folded.isEmpty }

    /// Whether `name`, in any case, is a member.
    public func contains(_ name: String) -> Bool {
        !folded.isEmpty && folded.contains(Self.fold(name))
    }

    /// Whether a name already folded by ``fold(_:)`` is a member: one fold for several sets.
    func contains(folded name: String) -> Bool {
        !folded.isEmpty && folded.contains(name)
    }

    /// Adds `name` in lower case; `memberAfterInsert` is the member as stored.
    @discardableResult
    public mutating func insert(_ name: String) -> (inserted: Bool, memberAfterInsert: String) {
        folded.insert(Self.fold(name))
    }

    /// Removes `name`, in any case; returns the member removed (lower-cased), or `nil` when it was absent.
    @discardableResult
    public mutating func remove(_ name: String) -> String? {
        folded.remove(Self.fold(name))
    }

    /// Adds `name`, replacing an equal member; returns the member replaced, or `nil`.
    @discardableResult
    public mutating func update(with name: String) -> String? {
        folded.update(with: Self.fold(name))
    }

    /// The names in either set.
    public func union(_ other: CaseInsensitiveNames) -> CaseInsensitiveNames {
        CaseInsensitiveNames(folded: folded.union(other.folded))
    }

    /// The names in both sets.
    public func intersection(_ other: CaseInsensitiveNames) -> CaseInsensitiveNames {
        CaseInsensitiveNames(folded: folded.intersection(other.folded))
    }

    /// The names in exactly one of the sets.
    public func symmetricDifference(_ other: CaseInsensitiveNames) -> CaseInsensitiveNames {
        CaseInsensitiveNames(folded: folded.symmetricDifference(other.folded))
    }

    /// Adds the names of `other`.
    public mutating func formUnion(_ other: CaseInsensitiveNames) {
        folded.formUnion(other.folded)
    }

    /// Keeps only the names also in `other`.
    public mutating func formIntersection(_ other: CaseInsensitiveNames) {
        folded.formIntersection(other.folded)
    }

    /// Keeps the names in exactly one of the sets.
    public mutating func formSymmetricDifference(_ other: CaseInsensitiveNames) {
        folded.formSymmetricDifference(other.folded)
    }

    /// Adds names of any sequence of strings, case folded.
    public mutating func formUnion<Names: Sequence>(_ names: Names) where Names.Element == String {
        for name in names { folded.insert(Self.fold(name)) }
    }

    /// The set with the names of any sequence of strings added, case folded.
    public func union<Names: Sequence>(_ names: Names) -> CaseInsensitiveNames where Names.Element == String {
        var result = self
        result.formUnion(names)
        return result
    }

    /// Iterates over the members, in lower case and in no particular order.
    public func makeIterator() -> Set<String>.Iterator { folded.makeIterator() }

    /// The members, sorted: `["authorization", "x-api-key"]`.
    public var description: String { folded.sorted().description }

    private init(folded: Set<String>) {
        self.folded = folded
    }
}
