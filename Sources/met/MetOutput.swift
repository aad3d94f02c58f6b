import CommandLine
import Foundation
import MetMuseum

/// Prints the Met's values as one JSON document (`--json`) or as text for people.
struct MetOutput {
    let console: Console
    let json: Bool

    private var width: Int { console.terminal.width }
    /// How many skipped IDs a warning names before it only counts.
    static let namedSkips = 10
    private var style: Style { console.outStyle }

    func search(_ result: FetchedObjects, text: String, limit: Int) {
        let skipped = result.skipped.map(\.id)
        if json {
            return console.printJSON([
                "total": .integer(result.matches), "objects": .array(result.objects.map(Self.json)),
                "skipped": JSONValue(skipped),
            ])
        }
        warnAboutSkipped(result.skipped)
        guard !result.objects.isEmpty else {
            return console.print(emptyMessage(result, text: text, limit: limit))
        }
        let rows = result.objects.map { object in
            [
                String(object.objectID), object.title ?? ToolText.sentence("met.untitled"),
                object.artistDisplayName ?? object.culture ?? "",
                object.objectDate ?? "",
            ]
        }
        console.print(TextLayout.columns(rows, width: width))
        console.print(
            style.dim(
                ToolText.counted(
                    "met.showing", count: result.matches,
                    ["shown": String(result.objects.count), "matches": String(result.matches)])
            ))
    }

    /// One warning per kind of skip: objects the Met lists but does not serve, and objects whose answer could not
    /// be read (a malformed body is not the Met declining to serve it). Each names its first few IDs and counts the
    /// rest, so thousands of skips stay one short line; `--json` lists every one.
    private func warnAboutSkipped(_ skipped: [SkippedObject]) {
        let notServed = skipped.filter(\.isNotServed).map(\.id)
        let unreadable = skipped.filter { !$0.isNotServed }.map(\.id)
        func list(_ ids: [Int]) -> String {
            let named = ids.prefix(Self.namedSkips).map(String.init).joined(separator: ", ")
            guard ids.count > Self.namedSkips else { return named }
            return ToolText.sentence("met.andMore", ["ids": named, "more": String(ids.count - Self.namedSkips)])
        }
        if !notServed.isEmpty {
            console.warning(ToolText.counted("met.skippedNotServed", count: notServed.count, ["ids": list(notServed)]))
        }
        if !unreadable.isEmpty {
            console.warning(
                ToolText.counted("met.skippedUnreadable", count: unreadable.count, ["ids": list(unreadable)]))
        }
    }

    private func emptyMessage(_ result: FetchedObjects, text: String, limit: Int) -> String {
        if result.matches == 0 { return ToolText.sentence("met.noObjectsFound", ["text": text]) }
        if limit == 0 { return ToolText.sentence("met.limitZero", ["matches": String(result.matches)]) }
        return ToolText.sentence(
            "met.noneShown", ["fetched": String(min(limit, result.matches)), "matches": String(result.matches)])
    }

    func objectIDs(_ list: ObjectIDList) {
        if json { return console.printJSON(["total": .integer(list.total), "objectIDs": JSONValue(list.ids)]) }
        guard !list.ids.isEmpty else { return console.print(ToolText.sentence("met.noObjects")) }
        console.print(TextLayout.wrap(list.ids.map(String.init).joined(separator: " "), width: width))
        let shown =
            list.ids.count == list.total
            ? "\(list.total) object IDs." : "\(list.ids.count) of \(list.total) object IDs."
        console.print(style.dim(shown))
    }

    func departments(_ departments: [Department]) {
        if json {
            return console.printJSON(
                .array(
                    departments.map {
                        ["departmentId": .integer($0.id), "displayName": .string($0.displayName)]
                    }))
        }
        guard !departments.isEmpty else { return console.print(ToolText.sentence("met.noDepartments")) }
        console.print(TextLayout.columns(departments.map { [String($0.id), $0.displayName] }, width: width))
    }

    func object(_ object: MetObject) {
        if json { return console.printJSON(Self.json(object)) }
        console.print(ObjectSheet(object: object, style: style, width: width).text())
    }

    /// An object in the Met's own field names, keys sorted; a value that cannot be encoded becomes its ID alone.
    static func json(_ object: MetObject) -> JSONValue {
        (try? JSONValue(encoding: object)) ?? ["objectID": .integer(object.objectID)]
    }
}

extension SkippedObject {
    /// Whether the Met declined the object (it has no such object, or does not serve it) rather than sending an
    /// answer that could not be read.
    var isNotServed: Bool {
        switch reason {
        case .notFound, .notAvailable: return true
        default: return false
        }
    }
}
