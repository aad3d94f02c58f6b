import FeatureState
import RecipesFeature
import Testing

/// The recipe screens' sentences in German, from the module's own tables.
@Suite("Recipe sentences in German")
struct RecipeWordingLocalizationTests {
    @Test("a failure's message in German")
    func germanMessage() {
        let failure = RecipeFailure(kind: .timedOut, technicalDescription: "timedOut")
        #expect(
            failure.message(in: "de")
                == "Der Rezeptdienst hat zu lange nicht geantwortet. Bitte versuchen Sie es erneut.")
        #expect(failure.message(in: "en") == "The recipe service took too long to answer. Please try again.")
    }

    @Test("every kind has a German sentence", arguments: FailureKind.allCases)
    func everyKind(kind: FailureKind) {
        let german = RecipeWording.sentence(for: kind, language: "de")
        #expect(!german.hasPrefix("failure."), "no table entry for \(kind)")
        #expect(german != RecipeWording.sentence(for: kind, language: "en"))
    }
}
