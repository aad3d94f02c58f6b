import Foundation
import MetMuseum
import Testing
import TestSupport

/// `objectID` is the Met's name and the object's identity; `id` stays only as `Identifiable`'s requirement.
@Suite("A Met object's identifier")
struct MetObjectIdentityTests {
    @Test("a fixture's objectID is the property and the Identifiable identity", .enabled(if: Fixtures.available("met")))
    func objectIDFromTheFixture() throws {
        let object = try JSONDecoder().decode(MetObject.self, from: Fixtures.data("met", "object_544120.json"))
        #expect(object.objectID == 544120)
        #expect(Self.identity(of: object) == 544120)
    }

    @Test("encoding writes objectID and no id field")
    func encodingWritesObjectID() throws {
        let object = MetObject(objectID: 436535, title: "Wheat Field with Cypresses")
        let fields = try JSONSerialization.jsonObject(with: JSONEncoder().encode(object)) as? [String: Any]
        #expect(fields?["objectID"] as? Int == 436535)
        #expect(fields?["id"] == nil)
        #expect(try JSONDecoder().decode(MetObject.self, from: JSONEncoder().encode(object)).objectID == 436535)
    }

    @Test("setting the identity through Identifiable's id changes objectID")
    func identityFollowsObjectID() {
        var object = MetObject(objectID: 1)
        object.objectID = 2
        #expect(Self.identity(of: object) == 2)
    }

    private static func identity<Object: Identifiable>(of object: Object) -> Object.ID { object.id }
}
