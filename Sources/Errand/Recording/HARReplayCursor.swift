import Foundation

/// Which recorded exchange answers each request of a replay: the first unused entry that matches, in the order of
/// the recording, so a request made three times gets the three answers recorded for it, in turn; once they are all
/// used, the last of them answers again (a revalidation, a retry the recording did not need).
struct HARReplayCursor: Sendable {
    /// The entries that can answer: those with a response (a failed exchange has status 0).
    let entries: [(index: Int, entry: HAR.Entry)]
    let matching: HARMatching
    let redaction: Redaction
    private(set) var used: Set<Int> = []

    init(_ har: HAR, matching: HARMatching, redaction: Redaction) {
        entries = har.log.entries.enumerated().filter { $0.element.response.status > 0 }.map { ($0.offset, $0.element) }
        self.matching = matching
        self.redaction = redaction
    }

    /// The outcome of looking a request up.
    enum Lookup: Sendable {
        /// This entry (at this index of the recording's entries) answers.
        case answer(HAR.Entry, index: Int)
        /// None matches; the reason names the closest one and how it differs.
        case mismatch(String)
    }

    /// The entry that answers `request`, marked used; or why none does.
    mutating func answer(_ request: TransportRequest) -> Lookup {
        var lastMatch: (index: Int, entry: HAR.Entry)?
        var closest: (index: Int, entry: HAR.Entry, differences: [String])?
        for candidate in entries {
            let differences = matching.differences(request, candidate.entry.request, redaction: redaction)
            if differences.isEmpty {
                if !used.contains(candidate.index) {
                    used.insert(candidate.index)
                    return .answer(candidate.entry, index: candidate.index)
                }
                lastMatch = candidate
            } else if closest.map({ differences.count < $0.differences.count }) ?? true {
                closest = (candidate.index, candidate.entry, differences)
            }
        }
        if let lastMatch { return .answer(lastMatch.entry, index: lastMatch.index) }
        let asked = "\(request.method.rawValue) \(redaction.covering(request).redact(request.url))"
        guard let closest else { return .mismatch("nothing was recorded for \(asked) (the recording is empty)") }
        return .mismatch(
            "nothing was recorded for \(asked); the closest is entry \(closest.index + 1) "
                + "(\(closest.entry.request.method) \(closest.entry.request.url)), which differs in "
                + closest.differences.joined(separator: "; ") + ".")
    }
}
