import Errand
import Foundation

extension ClientConfiguration {
    /// A configuration whose every request is answered from a HAR file and never reaches the network: one line to run
    /// a test or a preview against a recorded session.
    ///
    /// ```swift
    /// let meals = MealDBClient(configuration: try .replaying(harFile, baseURL: MealDBClient.defaultBaseURL))
    /// ```
    ///
    /// A request the recording does not hold fails with ``/Errand/TransportFailure/Kind/notRecorded``, naming the
    /// closest recorded exchange and how it differs. `redaction` should be the rules of the client that recorded
    /// (an SDK adds its key to them), so that masked URLs in the file match.
    ///
    /// - Throws: `HARFileError` for a file that cannot be read or is too large, or `DecodingError` for a file that
    ///   is not a HAR archive.
    public static func replaying(
        _ file: URL, baseURL: URL, matching: HARMatching = HARMatching(), redaction: Redaction = Redaction()
    ) throws -> ClientConfiguration {
        ClientConfiguration(
            baseURL: baseURL,
            transport: try HARReplayTransport(file: file, matching: matching, redaction: redaction),
            redaction: redaction)
    }
}
