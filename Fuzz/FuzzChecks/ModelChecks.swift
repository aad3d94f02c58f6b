import Foundation
@testable import MealDB
@testable import MetMuseum

/// The SDK decoders' promises on arbitrary JSON: a clear error or a value, never a crash; and a decoded value
/// written in the SDK's own form reads back as the same value.
///
/// Each input goes through every decoder: TheMealDB's envelope (`{"meals": [...]}`), a `Meal` in the SDK's form, and
/// a `MetObject` (the Met's form and the SDK's are one decoder).
enum ModelChecks {
    static func check(_ input: FuzzInput) -> Violations {
        let data = Data(input.bytes)
        let decoder = JSONDecoder()
        var violations: Violations = []
        if let list = try? decoder.decode(APIList<Meal>.self, from: data) {
            for meal in list.items { violations += roundTripViolations(meal) }
        }
        if let meal = try? decoder.decode(Meal.self, from: data) { violations += roundTripViolations(meal) }
        if let object = try? decoder.decode(MetObject.self, from: data) { violations += roundTripViolations(object) }
        if let ids = try? decoder.decode(ObjectIDList.self, from: data) { violations += roundTripViolations(ids) }
        return violations
    }

    /// Writing the value and reading it back is stable: the second round trip writes the same bytes as the first.
    private static func roundTripViolations<Value: Codable>(_ value: Value) -> Violations {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        let decoder = JSONDecoder()
        do {
            let once = try encoder.encode(value)
            let twice = try encoder.encode(decoder.decode(Value.self, from: once))
            return once == twice
                ? [] : ["\(Value.self) does not read back what it wrote: \(String(decoding: once, as: UTF8.self))"]
        } catch {
            return ["\(Value.self) could not read back what it wrote: \(error)"]
        }
    }
}
