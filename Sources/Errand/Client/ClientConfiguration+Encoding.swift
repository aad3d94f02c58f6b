import Foundation

extension ClientConfiguration {
    /// The encoder a configuration uses for JSON bodies unless given another: keys sorted, so that equal values give
    /// equal bytes (a body hash, a request signature, a replay's match and a printed `curl` command all depend on it).
    ///
    /// To send keys in the order the value's `encode(to:)` gives them, set ``ClientConfiguration/encoder`` to an
    /// encoder without `.sortedKeys`; a dictionary's order is then not stable between two equal dictionaries.
    public static func defaultEncoder() -> JSONEncoder {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        return encoder
    }
}
