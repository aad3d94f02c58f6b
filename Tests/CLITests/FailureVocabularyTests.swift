import CommandLine
import Errand
import FeatureState
import Foundation
import MetMuseum
import MuseumFeature
import RecipesFeature
import Testing

@Suite("One failure vocabulary: every kind has an app sentence and an exit code")
struct FailureVocabularyTests {
    /// The exit code each kind must have, as docs/CLI.md lists the classes.
    static let exitCodes: [FailureKind: ExitCode] = [
        .unreachable: .network, .connectionFailed: .network, .timedOut: .network, .notCached: .network,
        .redirectRefused: .network, .notFound: .notFound, .serverError: .server, .blocked: .server,
        .invalidResponse: .invalidResponse, .invalidRequest: .usage, .cancelled: .interrupted,
        .appFailure: .failure,
    ]

    @Test("each kind's exit code", arguments: FailureKind.allCases)
    func exitCode(kind: FailureKind) {
        #expect(ExitCode(kind) == Self.exitCodes[kind])
    }

    @Test("each kind's sentence in both apps: one sentence, never the technical words", arguments: FailureKind.allCases)
    func sentences(kind: FailureKind) {
        for sentence in [RecipeWording.sentence(for: kind), MuseumWording.sentence(for: kind)] {
            #expect(sentence.hasSuffix("."))
            #expect(!sentence.isEmpty && !sentence.contains("Error"))
        }
    }

    @Test("the apps tell the classes a user can act on apart")
    func distinctSentences() {
        let classes: [FailureKind] = [
            .unreachable, .timedOut, .serverError, .notFound, .invalidResponse, .invalidRequest,
        ]
        #expect(Set(classes.map(RecipeWording.sentence)).count == classes.count)
        #expect(Set(classes.map(MuseumWording.sentence)).count == classes.count)
    }

    @Test("a tool reports a classified failure with the kind's code, the error's own sentence and its detail")
    func toolFailure() {
        let error = ErrandError.unacceptableStatus(StatusFailure(status: 500, headers: [:], body: Data(), url: nil))
        let failure = Failure(ClassifiedFailure(error))
        #expect(failure.exitCode == .server)
        #expect(failure.message == error.userMessage)
        #expect(failure.detail == error.debugDescription)
    }

    @Test(
        "the Met's own failures, classified once for the app and the tool",
        arguments: [
            (MetError.notFound(objectID: 1, message: ""), FailureKind.notFound),
            (.notAvailable(objectID: 1, message: ""), .notFound),
            (.blocked(StatusFailure(status: 403, headers: [:], body: Data(), url: nil)), .blocked),
            (.serviceUnavailable(StatusFailure(status: 503, headers: [:], body: Data(), url: nil)), .serverError),
            (.invalidQuery("bad"), .invalidRequest),
            (.request(.transport(TransportFailure(kind: .timedOut, underlying: ""))), .timedOut),
            (.request(.cancelled), .cancelled),
        ])
    func metErrors(error: MetError, kind: FailureKind) {
        let museum = MuseumFailure(error)
        #expect(museum.kind == kind)
        #expect(museum.message == MuseumWording.sentence(for: kind))
        #expect(Failure(museum.classified).exitCode == ExitCode(kind))
        #expect(Failure(museum.classified).message == error.userMessage)
    }

    @Test("an unknown meal: not found, with the tool's sentence")
    func mealNotFound() {
        let failure = RecipeFailure.mealNotFound(id: "1")
        #expect(failure.kind == .notFound)
        #expect(Failure(failure.classified).message == "TheMealDB has no meal with id 1.")
        #expect(Failure(failure.classified).exitCode == .notFound)
    }
}
