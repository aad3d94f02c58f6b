import CommandLine
import MealDB

// The JSON shapes of the contract, keys in the order it lists them, absent values as null.

extension Meal: JSONRepresentable {
    /// `{"id","name","alternateName","category","area","instructions","thumbnail","tags","youtube","source","ingredients"}`.
    public var json: JSONValue {
        [
            "id": .string(id), "name": .string(name), "alternateName": JSONValue(alternateName),
            "category": JSONValue(category), "area": JSONValue(area), "instructions": JSONValue(instructions),
            "thumbnail": JSONValue(thumbnail?.absoluteString), "tags": JSONValue(tags),
            "youtube": JSONValue(youtube?.absoluteString), "source": JSONValue(source?.absoluteString),
            "ingredients": .array(ingredients.map { ["name": .string($0.name), "measure": JSONValue($0.measure)] }),
        ]
    }
}

extension MealSummary: JSONRepresentable {
    /// `{"id","name","thumbnail"}`.
    public var json: JSONValue {
        ["id": .string(id), "name": .string(name), "thumbnail": JSONValue(thumbnail?.absoluteString)]
    }
}

extension MealCategory: JSONRepresentable {
    /// `{"id","name","thumbnail","description"}`.
    public var json: JSONValue {
        [
            "id": .string(id), "name": .string(name), "thumbnail": JSONValue(thumbnail?.absoluteString),
            "description": JSONValue(description),
        ]
    }
}

extension Ingredient: JSONRepresentable {
    /// `{"id","name","description","type"}`.
    public var json: JSONValue {
        ["id": .string(id), "name": .string(name), "description": JSONValue(description), "type": JSONValue(type)]
    }
}
