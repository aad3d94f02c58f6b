import Errand
import Foundation
import MealDB
import Testing

/// `thumbnailData(_:size:)`: the size variant, else the original when the variant is not there.
@Suite("MealDB thumbnails")
struct ThumbnailFallbackTests {
    let thumbnail = URL(string: "https://www.themealdb.com/images/media/meals/abc123.jpg")!
    let jpeg = Data([0xFF, 0xD8, 0xFF, 0xE0])

    @Test func theVariantWhenItIsThere() async throws {
        let mealDB = StubbedMealDB()
        mealDB.respond(to: "abc123.jpg/small", body: jpeg)
        #expect(try await mealDB.client.thumbnailData(thumbnail, size: .small) == jpeg)
        #expect(mealDB.stub.requests.map(\.url.path) == ["/images/media/meals/abc123.jpg/small"])
    }

    @Test("the original when the variant answers a 4xx", arguments: [404, 403, 410])
    func theOriginalWhenTheVariantIsMissing(status: Int) async throws {
        let mealDB = StubbedMealDB()
        mealDB.stub.respond(to: "abc123.jpg/medium", status: status, body: Data("missing".utf8))
        mealDB.respond(to: "abc123.jpg", body: jpeg)
        #expect(try await mealDB.client.thumbnailData(thumbnail, size: .medium) == jpeg)
        #expect(
            mealDB.stub.requests.map(\.url.path) == [
                "/images/media/meals/abc123.jpg/medium", "/images/media/meals/abc123.jpg",
            ])
    }

    @Test func aServerErrorIsThrownWithoutTryingTheOriginal() async throws {
        let mealDB = StubbedMealDB()
        mealDB.stub.respond(to: "abc123.jpg/large", status: 500, body: Data())
        mealDB.respond(to: "abc123.jpg", body: jpeg)
        let error = try await #require(throws: ErrandError.self) {
            try await mealDB.client.thumbnailData(thumbnail, size: .large)
        }
        #expect(error.status == 500)
        #expect(mealDB.stub.requests.count == 1)
    }

    @Test func whenBothAreMissingTheOriginalsFailureIsThrown() async throws {
        let mealDB = StubbedMealDB()
        mealDB.stub.respond(to: "abc123.jpg/preview", status: 404, body: Data())
        mealDB.stub.respond(to: "abc123.jpg", status: 404, body: Data("gone".utf8))
        let error = try await #require(throws: ErrandError.self) {
            try await mealDB.client.thumbnailData(thumbnail, size: .preview)
        }
        #expect(error.status == 404)
        #expect(mealDB.stub.requests.count == 2)
    }
}
