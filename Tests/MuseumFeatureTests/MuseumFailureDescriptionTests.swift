import FeatureState
import MetMuseum
import MuseumFeature
import Testing

/// Printing a failure gives the user's sentence; `String(reflecting:)` gives the log text.
@Suite("Museum failures as text")
struct MuseumFailureDescriptionTests {
    @Test("description is the user's sentence, debugDescription the technical description")
    func descriptionIsTheSentence() {
        let failure = MuseumFailure(
            kind: .timedOut, technicalDescription: "timedOut: GET https://collectionapi.example/1")
        #expect(failure.message == "The museum's service took too long to answer. Please try again.")
        #expect("\(failure)" == failure.message)
        #expect(failure.localizedDescription == failure.message)
        #expect(String(reflecting: failure) == "timedOut: GET https://collectionapi.example/1")
    }

    @Test("a preview store takes its state under that name")
    @MainActor func previewStoreState() {
        let store = MuseumSearchStore(objects: [MetObject(objectID: 7)], state: .fetching, matches: 30)
        #expect(store.state == .fetching)
        #expect(store.objectIDs == [7])
        #expect(store.matches == 30)
    }
}
