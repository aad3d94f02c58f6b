import Errand
import Foundation
import TestSupport
import Testing

/// `data(for:fallingBackTo:)` against the replica's pictures: a size that does not exist falls back to the original;
/// a server error does not.
@Suite("Data pipeline fallback", .enabled(if: TestServer.replica.isUsable))
struct DataPipelineFallbackTests {
    let original: URL
    let recorder = ExchangeRecorder()
    let pipeline: DataPipeline

    init() throws {
        let replica = try TestServer.replica.url()
        original = replica.appendingPathComponent("images/media/meals/qtrwvp1700000001.png")
        pipeline = DataPipeline(
            client: APIClient(
                configuration: ClientConfiguration(
                    baseURL: replica, observers: [recorder])))
    }

    @Test func aMissingVariantFallsBackToTheOriginal() async throws {
        // The replica serves small, medium, large and preview; any other size is a 404.
        let variant = original.appendingPathComponent("enormous")
        let data = try await pipeline.data(for: variant, fallingBackTo: original)
        #expect(data.prefix(4) == Data([0x89, 0x50, 0x4E, 0x47]))
        #expect(recorder.events.map(\.status) == [404, 200])
        #expect(pipeline.cachedData(for: original) == data, "the original is kept as any download is")
    }

    @Test func aVariantThatExistsIsAllThatIsFetched() async throws {
        let variant = original.appendingPathComponent("small")
        let small = try await pipeline.data(for: variant, fallingBackTo: original)
        #expect(recorder.events.map(\.url) == [variant.absoluteString])
        #expect(try await pipeline.data(for: original) != small)
    }

    @Test func aServerErrorDoesNotFallBack() async throws {
        let failing = original.appendingPathComponent("medium").appending(queryItems: [
            URLQueryItem(name: "x", value: "__500__")
        ])
        let error = try await #require(throws: ErrandError.self) {
            try await pipeline.data(for: failing, fallingBackTo: original)
        }
        #expect(error.status == 500)
        #expect(recorder.events.count == 1, "the fallback was fetched after a 500")
    }

    @Test func whenBothAreMissingTheFallbacksFailureIsThrown() async throws {
        let missing = original.deletingLastPathComponent().appendingPathComponent("nosuchmeal.png")
        let error = try await #require(throws: ErrandError.self) {
            try await pipeline.data(for: missing.appendingPathComponent("medium"), fallingBackTo: missing)
        }
        #expect(error.status == 404)
        #expect(
            recorder.events.map(\.url) == [
                missing.appendingPathComponent("medium").absoluteString, missing.absoluteString,
            ])
    }

    @Test(
        "which failures fall back",
        arguments: [
            (ErrandError.unacceptableStatus(StatusFailure(status: 404, headers: [:], body: Data(), url: nil)), true),
            (.unacceptableStatus(StatusFailure(status: 410, headers: [:], body: Data(), url: nil)), true),
            (.blocked(StatusFailure(status: 403, headers: [:], body: Data(), url: nil)), true),
            (.notCached(URL(string: "https://example.com/a.jpg/medium")!), true),
            (.unacceptableStatus(StatusFailure(status: 503, headers: [:], body: Data(), url: nil)), false),
            (.transport(TransportFailure(kind: .timedOut, url: nil, underlying: "timed out")), false),
            (.cancelled, false),
        ])
    func whichFailuresFallBack(error: ErrandError, fallsBack: Bool) {
        #expect(DataPipeline.fallsBack(after: error) == fallsBack)
    }
}
