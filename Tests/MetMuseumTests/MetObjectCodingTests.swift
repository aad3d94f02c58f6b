import Foundation
import Testing

@testable import MetMuseum

/// MetObject's own JSON: the Met's field names, every key present, null for missing values.
@Suite("MetObject coding")
struct MetObjectCodingTests {
    private static let raw = Data(
        #"""
        {"objectID":12,"isHighlight":true,"isPublicDomain":false,"primaryImage":"","primaryImageSmall":"",
         "additionalImages":null,"constituents":[{"constituentID":5,"role":"Artist","name":"A. Painter",
         "constituentULAN_URL":"","constituentWikidata_URL":"https://www.wikidata.org/wiki/Q1","gender":""}],
         "title":"Sunflowers","culture":"","objectBeginDate":1890,"objectEndDate":1880,"measurements":null,
         "tags":[{"term":"Sunflowers","AAT_URL":"http://vocab.getty.edu/page/aat/1","Wikidata_URL":""}],
         "metadataDate":"2023-01-02T03:04:05.6Z","GalleryNumber":"825","objectURL":"https://example.org/12"}
        """#.utf8)

    private func encodedFields(_ object: MetObject) throws -> [String: Any] {
        let data = try JSONEncoder().encode(object)
        return try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
    }

    @Test("encodes the Met's names with null for empty values and arrays for lists")
    func encodedShape() throws {
        let object = try JSONDecoder().decode(MetObject.self, from: Self.raw)
        let fields = try encodedFields(object)
        let required = [
            "objectID", "title", "isPublicDomain", "isHighlight", "primaryImage", "primaryImageSmall",
            "additionalImages",
            "department", "objectName", "culture", "period", "objectDate", "objectBeginDate", "objectEndDate", "medium",
            "dimensions", "creditLine", "artistDisplayName", "constituents", "tags", "measurements", "objectURL",
            "galleryNumber", "metadataDate",
        ]
        #expect(required.filter { fields[$0] == nil } == [])
        #expect(fields["objectID"] as? Int == 12)
        #expect(fields["primaryImage"] is NSNull)
        #expect(fields["culture"] is NSNull)
        #expect(fields["galleryNumber"] as? String == "825")
        #expect(fields["GalleryNumber"] == nil)
        #expect((fields["additionalImages"] as? [Any])?.isEmpty == true)
        #expect((fields["measurements"] as? [Any])?.isEmpty == true)
        #expect(fields["metadataDate"] as? String == "2023-01-02T03:04:05.600Z")
        let constituent = try #require((fields["constituents"] as? [[String: Any]])?.first)
        #expect(Set(constituent.keys) == ["id", "role", "name", "gender", "ulanURL", "wikidataURL"])
        #expect(constituent["ulanURL"] is NSNull && constituent["gender"] is NSNull)
        #expect(constituent["wikidataURL"] as? String == "https://www.wikidata.org/wiki/Q1")
        let tag = try #require((fields["tags"] as? [[String: Any]])?.first)
        #expect(Set(tag.keys) == ["term", "aatURL", "wikidataURL"])
        #expect(tag["wikidataURL"] is NSNull)
    }

    @Test("decodes its own encoding back to the same value")
    func roundTrip() throws {
        let object = try JSONDecoder().decode(MetObject.self, from: Self.raw)
        let again = try JSONDecoder().decode(MetObject.self, from: JSONEncoder().encode(object))
        #expect(again == object)
        #expect(again.dateRange == 1880...1890)
    }

    @Test("a record without objectID is a decoding error, not a crash")
    func missingID() {
        #expect(throws: DecodingError.self) {
            try JSONDecoder().decode(MetObject.self, from: Data(#"{"title":"x"}"#.utf8))
        }
    }

    @Test(
        "metadataDate reads one to three fractional digits and offsets",
        arguments: [
            ("2020-09-14T12:26:37.48Z", "2020-09-14T12:26:37.480Z"),
            ("2021-04-06T04:41:04.967Z", "2021-04-06T04:41:04.967Z"),
            ("2024-01-09T11:20:05.8Z", "2024-01-09T11:20:05.800Z"),
            ("2024-01-09T11:20:05Z", "2024-01-09T11:20:05.000Z"),
            ("2024-01-09T13:20:05.25+02:00", "2024-01-09T11:20:05.250Z"),
            ("2024-01-09T06:50:05-04:30", "2024-01-09T11:20:05.000Z"),
            ("2024-01-09T11:20:05.123456789Z", "2024-01-09T11:20:05.123Z"),
            ("9999-12-31T23:59:59.999Z", "9999-12-31T23:59:59.999Z"),
            ("0001-01-01T05:00:00+05:00", "0001-01-01T00:00:00.000Z"),
        ])
    func metadataDates(text: String, expected: String) {
        #expect(MetadataDate.parse(text).map(MetadataDate.format) == expected)
    }

    @Test(
        "unreadable metadataDate text is no date",
        arguments: [
            "", "2024-01-09", "2024-13-09T11:20:05Z", "yesterday", "2024-01-09T11:20:05.Z",
            // Found by fuzz-models: an offset's hours that overflow Int when turned into seconds.
            "4042-04-06T04041:04.9+02:0111111111111111111110",
            "2024-01-09T11:20:05+99:00", "2024-01-09T11:20:05.1e5Z", "2024-1-09T11:20:05Z", "+2024-01-09T11:20:05Z",
            "0000-01-09T11:20:05Z", "2024-01-09T11:20:05.0000000001Z", "2024-01-09T11:20:05Zjunk",
            "2024-01-09T11:20:05+0200", "2024-01-09T11:20:05.5+02:00:00", "٢٠٢٤-01-09T11:20:05Z",
            // Inside the years when read, outside once the offset or the rounding to milliseconds applies.
            "0001-01-01T00:00:00+05:00", "9999-12-31T23:59:59.9999Z", "9999-12-31T23:00:00-01:00",
        ])
    func badMetadataDates(text: String) {
        #expect(MetadataDate.parse(text) == nil)
    }

    @Test("departments and ID lists encode in the Met's shape")
    func smallTypes() throws {
        let department = String(
            decoding: try JSONEncoder().encode(Department(id: 11, displayName: "European Paintings")), as: UTF8.self)
        #expect(department.contains(#""departmentId":11"#))
        let list = try JSONDecoder().decode(ObjectIDList.self, from: Data(#"{"total":0,"objectIDs":null}"#.utf8))
        let fields = try #require(try JSONSerialization.jsonObject(with: JSONEncoder().encode(list)) as? [String: Any])
        #expect((fields["objectIDs"] as? [Any])?.isEmpty == true)
        #expect(fields["total"] as? Int == 0)
    }
}
