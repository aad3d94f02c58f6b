import FeatureState
import SwiftUI

/// A feature model's status in place of a screen's content: a spinner with what is loading, a hint, an empty
/// result, or the failure's sentence with a button that tries again.
public struct StatusView: View {
    let status: ScreenStatus
    let emptySymbol: String
    let retryLabel: String
    let retry: () async -> Void

    /// Shows `status`, an empty result with the SF Symbol `emptySymbol`; a failure's button is labelled
    /// `retryLabel` and runs `retry`.
    public init(
        _ status: ScreenStatus, emptySymbol: String = "tray", retryLabel: String, retry: @escaping () async -> Void
    ) {
        self.status = status
        self.emptySymbol = emptySymbol
        self.retryLabel = retryLabel
        self.retry = retry
    }

    public var body: some View {
        switch status {
        case .loading(let text):
            ProgressView(text)
        case .hint(let text):
            ContentUnavailableView(text, systemImage: "magnifyingglass")
        case .empty(let text):
            ContentUnavailableView(text, systemImage: emptySymbol)
        case .failed(let text):
            ContentUnavailableView {
                Label(text, systemImage: "wifi.exclamationmark")
            } actions: {
                Button(retryLabel) { Task { await retry() } }
                    .buttonStyle(.borderedProminent)
            }
        }
    }
}
