import Foundation
import CommandLine
import MetMuseum

/// Reads the search filters of `met search` into a ``SearchQuery``.
enum MetSearchOptions {
    /// The `--rate` values `met search` takes: from one request a hundred seconds to a thousand a second (the Met
    /// itself allows 80; more is for a local replica).
    static let rates: ClosedRange<Double> = 0.01...1_000

    static func query(from invocation: Invocation) throws(UsageError) -> SearchQuery {
        var query = SearchQuery(try invocation.requiredArgument("QUERY"))
        if invocation.flag("title") { query.fields.insert(.title) }
        if invocation.flag("tags") { query.fields.insert(.tags) }
        if invocation.flag("artist-or-culture") { query.fields.insert(.artistOrCulture) }
        query.isHighlight = invocation.flag("highlight")
        query.isOnView = invocation.flag("on-view")
        query.hasImages = invocation.flag("has-images")
        query.departmentID = try invocation.integer("department", in: 1...Int.max)
        query.media = try alternatives("medium", invocation)
        query.geoLocations = try alternatives("geo", invocation)
        let from = try invocation.integer("from", in: -10_000...10_000)
        let to = try invocation.integer("to", in: -10_000...10_000)
        switch (from, to) {
        case (nil, nil):
            break
        case (let from?, let to?):
            guard from <= to else {
                throw invocation.usageError(
                    ToolText.sentence("met.fromAfterTo", ["from": String(from), "to": String(to)]))
            }
            query.dateBegin = from
            query.dateEnd = to
        case (_?, nil):
            throw invocation.usageError(ToolText.sentence("met.fromNeedsTo"))
        case (nil, _?):
            throw invocation.usageError(ToolText.sentence("met.toNeedsFrom"))
        }
        return query
    }

    /// `A|B|C` as its alternatives; an empty one is a usage error.
    private static func alternatives(_ name: String, _ invocation: Invocation) throws(UsageError) -> [String] {
        guard let text = invocation.value(name) else { return [] }
        let parts = text.split(separator: "|", omittingEmptySubsequences: false).map {
            $0.trimmingCharacters(in: .whitespaces)
        }
        guard !parts.contains(where: \.isEmpty) else {
            throw invocation.usageError(
                ToolText.sentence("met.listExpected", ["name": name, "text": UsageError.echo(text)]))
        }
        return parts
    }
}
