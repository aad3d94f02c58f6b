import Errand
import Foundation
import Observation

/// One picture of a screen, with its own states: a placeholder while it loads or when it cannot be had, the
/// bytes once they arrive.
///
/// The bytes come through an Errand ``/Errand/DataPipeline``, so a picture shown twice is fetched once, a list
/// scrolled back shows its pictures from memory, and the client's rules (https only, limits, retries) apply. A view
/// turns ``/FeatureState/LoadingModel/state``'s data into its platform's image; a picture without an address
/// stays `idle`, and a failed one shows the placeholder rather than an error sentence (a missing thumbnail is no
/// reason to interrupt a list).
@MainActor @Observable
public final class PictureModel<Failure: PresentableFailure>: LoadingModel {
    /// The picture's address; `nil` when the record has none.
    public let url: URL?
    /// Holds the state.
    public let loader: Loader<Data, Failure>

    /// Loads `url` through `pipeline` when asked to (``/FeatureState/LoadingModel/loadIfIdle()``).
    public init(url: URL?, pipeline: DataPipeline) {
        self.url = url
        if let url {
            self.loader = Loader { try await pipeline.data(for: url) }
        } else {
            self.loader = Loader(state: .idle)
        }
    }

    /// Fixed in a state, for previews: nothing is fetched.
    public init(url: URL? = nil, state: LoadState<Data>) {
        self.url = url
        self.loader = Loader(state: state)
    }
}
