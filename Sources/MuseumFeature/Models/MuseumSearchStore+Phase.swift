import MetMuseum

extension MuseumSearchStore {
    /// The earlier name of ``State``.
    @available(*, deprecated, renamed: "State")
    public typealias Phase = State

    /// The earlier name of ``state``: every other model of the feature modules calls it `state`.
    @available(*, deprecated, renamed: "state")
    public var phase: State { state }

    /// Fixed with some objects, for previews: nothing is fetched.
    @available(*, deprecated, renamed: "init(objects:state:matches:)")
    public convenience init(objects: [MetObject], phase: State, matches: Int? = nil) {
        self.init(objects: objects, state: phase, matches: matches)
    }
}
