import FeatureState
import MuseumFeature
import Testing

/// The museum screens' sentences in German, from the module's own tables.
@Suite("Museum sentences in German")
struct MuseumWordingLocalizationTests {
    @Test("a failure's message in German")
    func germanMessage() {
        let failure = MuseumFailure(kind: .notFound, technicalDescription: "404")
        #expect(failure.message(in: "de") == "Dieses Objekt wurde in der Sammlung nicht gefunden.")
    }

    @Test("every kind has a German sentence", arguments: FailureKind.allCases)
    func everyKind(kind: FailureKind) {
        let german = MuseumWording.sentence(for: kind, language: "de")
        #expect(!german.hasPrefix("failure."), "no table entry for \(kind)")
        #expect(german != MuseumWording.sentence(for: kind, language: "en"))
    }
}
