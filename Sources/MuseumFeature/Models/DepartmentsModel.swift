import FeatureState
import MetMuseum
import Observation

/// The museum's curatorial departments.
@MainActor @Observable
public final class DepartmentsModel: LoadingModel {
    /// Holds the state.
    public let loader: Loader<[Department]>

    /// Loads from The Met (or a client on a stub transport, for tests).
    public init(client: MetClient) {
        self.loader = Loader { try await client.departments() }
    }

    /// Fixed in a state, for previews: nothing is fetched.
    public init(state: LoadState<[Department]>) {
        self.loader = Loader(state: state)
    }
}
