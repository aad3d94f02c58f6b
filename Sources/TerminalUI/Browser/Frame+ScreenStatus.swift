import FeatureState

extension Frame.Status {
    /// A feature model's status as the terminal shows it: the same sentence in the same case.
    public init(_ status: ScreenStatus) {
        switch status {
        case .hint(let text): self = .hint(text)
        case .loading(let text): self = .loading(text)
        case .empty(let text): self = .empty(text)
        case .failed(let text): self = .failed(text)
        }
    }
}
