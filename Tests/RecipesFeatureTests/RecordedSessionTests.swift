import Errand
import ErrandTesting
import FeatureState
import Foundation
import MealDB
import TestSupport
import Testing

@testable import RecipesFeature

/// The preview pattern of "Building an app on the feature modules": a model on a recorded session.
@MainActor
@Suite("A model on a recorded session", .enabled(if: TestServer.replica.isUsable))
struct RecordedSessionTests {
    @Test("a search recorded against the replica shows the same meals from the recording; another search fails")
    func replayedSearch() async throws {
        let root = try TestServer.replica.url()
        let recording = try HARFiles.make("recipes-preview")
        let recorder = try HARRecorder(file: recording)
        let live = MealSearchModel(
            client: MealDBClient(configuration: ClientConfiguration(baseURL: root, observers: [recorder])),
            debounce: nil)
        await live.search("pasta")
        await recorder.flush()
        let recorded = try #require(live.state.value)
        #expect(!recorded.isEmpty)

        let configuration = try ClientConfiguration.replaying(recording, baseURL: root)
        let search = MealSearchModel(client: MealDBClient(configuration: configuration), debounce: nil)
        search.query = "pasta"
        await search.settle()
        #expect(search.state.value?.map(\.id) == recorded.map(\.id))

        await search.search("soup")
        #expect(search.state.value == nil, "not in the recording: \(search.state)")
        #expect(search.lastFailure?.kind == .notCached)
    }
}
