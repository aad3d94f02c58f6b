import Foundation

/// An error that describes itself by the one rule every error of Errand and its modules follows: one sentence for
/// the person using the app, the details for the developer.
///
/// - ``userMessage`` is one sentence fit to show an end user: what happened, in their words, without types, codes,
///   headers or bodies. `description` and `localizedDescription` (`LocalizedError.errorDescription`) are the same
///   sentence, so `"\(error)"`, `Text(error.localizedDescription)` and an alert all show it.
/// - `debugDescription` (what `String(reflecting: error)` gives) is for the developer and the log: the case, the URL,
///   the status, the underlying error. It is never shown to the user, and it says more than the sentence wherever there
///   is more to say.
///
/// ``ErrandError`` and the failures of the SDKs, the feature modules, the storage and the tools all conform.
public protocol DescribedError: LocalizedError, CustomStringConvertible, CustomDebugStringConvertible, Sendable {
    /// One sentence fit to show an end user.
    var userMessage: String { get }
}

extension DescribedError {
    /// The same sentence as ``userMessage``.
    public var description: String { userMessage }

    /// The same sentence as ``userMessage``, which `localizedDescription` returns.
    public var errorDescription: String? { userMessage }
}
