import FeatureState
import MetMuseum
import MuseumFeature
import Testing

/// Printing a failure gives the log text; the user's sentence is `message`.
@Suite("Museum failures as text")
struct MuseumFailureDescriptionTests {
    @Test("description is the technical description, not the user's sentence")
    func descriptionIsTheLogText() {
        let failure = MuseumFailure(
            kind: .timedOut, technicalDescription: "timedOut: GET https://collectionapi.example/1")
        #expect(failure.description == "timedOut: GET https://collectionapi.example/1")
        #expect("\(failure)" == failure.technicalDescription)
        #expect(failure.message == "The museum's service took too long to answer. Please try again.")
        #expect(failure.description != failure.message)
    }

    @Test("a preview store takes its state under that name")
    @MainActor func previewStoreState() {
        let store = MuseumSearchStore(objects: [MetObject(objectID: 7)], state: .fetching, matches: 30)
        #expect(store.state == .fetching)
        #expect(store.objectIDs == [7])
        #expect(store.matches == 30)
    }
}
