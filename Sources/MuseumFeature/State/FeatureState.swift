@_exported import FeatureState

/// Where a screen's data stands (shared by the feature modules).
public typealias LoadState = FeatureState.LoadState

/// Drives one ``LoadState`` through loading, refreshing and retrying, presenting failures as ``MuseumFailure``.
public typealias Loader<Value: Sendable> = FeatureState.Loader<Value, MuseumFailure>

extension MuseumFailure: PresentableFailure {}
