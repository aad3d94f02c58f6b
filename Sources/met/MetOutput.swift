import CommandLine
import Foundation
import MetMuseum

/// Prints the Met's values as one JSON document (`--json`) or as text for people.
struct MetOutput {
    let console: Console
    let json: Bool

    private var width: Int { console.terminal.width }
    private var style: Style { console.outStyle }

    func search(_ result: FetchedObjects, text: String) {
        let skipped = result.skipped.map(\.id)
        if json {
            return console.printJSON([
                "total": .integer(result.matches), "objects": .array(result.objects.map(Self.json)),
                "skipped": JSONValue(skipped),
            ])
        }
        if !skipped.isEmpty {
            let list = skipped.map(String.init).joined(separator: ", ")
            console.warning("skipped \(skipped.count) object\(skipped.count == 1 ? "" : "s") the Met does not serve: \(list).")
        }
        guard !result.objects.isEmpty else {
            return console.print(result.matches == 0
                ? "No objects found for \"\(text)\"." : "None of the \(result.matches) matching objects could be shown.")
        }
        let rows = result.objects.map { object in
            [String(object.id), object.title ?? "Untitled", object.artistDisplayName ?? object.culture ?? "", object.objectDate ?? ""]
        }
        console.print(TextLayout.columns(rows, width: width))
        console.print(style.dim("Showing \(result.objects.count) of \(result.matches) matching objects. Run 'met show ID' for one in full."))
    }

    func objectIDs(_ list: ObjectIDList) {
        if json { return console.printJSON(["total": .integer(list.total), "objectIDs": JSONValue(list.ids)]) }
        guard !list.ids.isEmpty else { return console.print("No objects found.") }
        console.print(TextLayout.wrap(list.ids.map(String.init).joined(separator: " "), width: width))
        let shown = list.ids.count == list.total ? "\(list.total) object IDs." : "\(list.ids.count) of \(list.total) object IDs."
        console.print(style.dim(shown))
    }

    func departments(_ departments: [Department]) {
        if json {
            return console.printJSON(.array(departments.map {
                ["departmentId": .integer($0.id), "displayName": .string($0.displayName)]
            }))
        }
        guard !departments.isEmpty else { return console.print("No departments.") }
        console.print(TextLayout.columns(departments.map { [String($0.id), $0.displayName] }, width: width))
    }

    func object(_ object: MetObject) {
        if json { return console.printJSON(Self.json(object)) }
        console.print(ObjectSheet(object: object, style: style, width: width).text())
    }

    /// An object in the Met's own field names, keys sorted; a value that cannot be encoded becomes its ID alone.
    static func json(_ object: MetObject) -> JSONValue {
        (try? JSONValue(encoding: object)) ?? ["objectID": .integer(object.id)]
    }
}
