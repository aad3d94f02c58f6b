import CommandLine
@testable import Errand
import FeatureState
import Foundation
import MetMirror
import MetMuseum
import MuseumFeature
import RecipesFeature
import Testing

/// Every public failure type of the package describes itself by one rule (`DescribedError`): `description` and
/// `localizedDescription` are the user's sentence, `debugDescription` the technical text for the log.
@Suite("One rule for describing errors")
struct ErrorDescriptionRuleTests {
    /// One failure of a type, and a piece of technical detail its `debugDescription` must carry.
    struct Sample: CustomTestStringConvertible {
        var error: any DescribedError
        var detail: String

        var testDescription: String { String(describing: type(of: error)) }
    }

    static let url = URL(string: "https://api.example.com/v1/search?q=cat")!
    static let status = StatusFailure(
        status: 503, headers: ["Content-Type": "text/html"], body: Data("<h1>maintenance</h1>".utf8), url: url)
    static let timeout = ErrandError.transport(
        TransportFailure(kind: .timedOut, url: url, underlying: "Operation timed out after 30001 milliseconds"))

    static let samples: [Sample] = [
        Sample(error: timeout, detail: "30001 milliseconds"),
        Sample(error: ErrandError.unacceptableStatus(status), detail: "<h1>maintenance</h1>"),
        Sample(error: MetError.notFound(objectID: 9, message: "ObjectID not found"), detail: "ObjectID not found"),
        Sample(error: MetError.serviceUnavailable(status), detail: "HTTP 503"),
        Sample(error: ClassifiedFailure(timeout), detail: "30001 milliseconds"),
        Sample(error: RecipeFailure(timeout), detail: "30001 milliseconds"),
        Sample(error: RecipeFailure.mealNotFound(id: "52771"), detail: "lookup.php"),
        Sample(error: MuseumFailure(MetError.blocked(status)), detail: "HTTP 503"),
        Sample(
            error: CacheStorageError(path: "/tmp/c.sqlite", kind: .unusable, reason: "disk I/O"), detail: "unusable"),
        Sample(
            error: CookieStorageError(path: "/tmp/j.sqlite", kind: .inUse, reason: "SQLITE_BUSY"), detail: "SQLITE_BUSY"
        ),
        Sample(error: CookieFileError(line: 3, reason: "6 fields, not 7"), detail: "line: 3"),
        Sample(error: CookieRejection.publicSuffix("co.uk"), detail: "publicSuffix"),
        Sample(error: MirrorStoreError(code: 13, message: "database or disk is full"), detail: "SQLite error 13"),
        Sample(error: MirrorError.met(.serviceUnavailable(status)), detail: "HTTP 503"),
        Sample(error: Failure(.server, "The service is down.", detail: "HTTP 503 from …"), detail: "HTTP 503 from"),
        Sample(error: UsageError("unknown option '--bogus'", helpCommand: "met search"), detail: "met search"),
    ]

    @Test(
        "description and localizedDescription are the user's sentence; debugDescription the log's detail",
        arguments: samples)
    func describesItselfByTheRule(_ sample: Sample) {
        let error = sample.error
        #expect(!error.userMessage.isEmpty)
        #expect(error.description == error.userMessage)
        #expect("\(error)" == error.userMessage)
        #expect((error as any Error).localizedDescription == error.userMessage)
        #expect(String(reflecting: error) == error.debugDescription)
        #expect(error.debugDescription.contains(sample.detail), "\(error.debugDescription)")
        #expect(error.debugDescription != error.userMessage)
        // The sentence is for a person: no type names, no line breaks.
        #expect(!error.userMessage.contains("\n"))
        #expect(!error.userMessage.contains("Error."))
    }

    @Test("a tool reports any other error by its sentence and keeps its details for --verbose")
    func toolFailureKeepsTheDetail() {
        let failure = Failure.classify(MirrorStoreError(code: 13, message: "database or disk is full"))
        #expect(failure.message == "The disk is full: the mirror could not store more.")
        #expect(failure.detail?.contains("SQLite error 13") == true)
    }
}
