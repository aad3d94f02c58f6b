@_exported import FeatureState

/// Drives one ``/FeatureState/LoadState`` through loading, refreshing and retrying, presenting failures as
/// ``RecipeFailure``.
public typealias Loader<Value: Sendable> = FeatureState.Loader<Value, RecipeFailure>
