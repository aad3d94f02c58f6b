import Foundation
import Testing

@testable import Errand

/// The user's sentences come from the string tables, in the language asked for, and an app can override any of them.
@Suite("Localized sentences")
struct LocalizationTests {
    private static let url = URL(string: "https://example.com/search.php")!

    @Test("a transport failure, a status and a placeholder in German")
    func germanSentences() {
        let timeout = ErrandError.transport(TransportFailure(kind: .timedOut, url: Self.url, underlying: "28"))
        #expect(timeout.userMessage(in: "de") == "Der Server hat zu lange nicht geantwortet.")
        let status = ErrandError.unacceptableStatus(
            StatusFailure(status: 503, headers: [:], body: Data(), url: Self.url))
        #expect(status.userMessage(in: "de") == "Beim Server ist ein Problem aufgetreten (HTTP 503).")
        let insecure = ErrandError.insecureURL(URL(string: "http://api.example.com/v1")!)
        #expect(
            insecure.userMessage(in: "de")
                == "Die Verbindung zu api.example.com ohne Verschlüsselung wurde abgelehnt: https ist erforderlich.")
        #expect(ErrandError.cancelled.userMessage(in: "de") == "Die Anfrage wurde abgebrochen.")
    }

    @Test("English is the table's, as before, and a language without a table gets it")
    func englishAndFallback() {
        let status = ErrandError.unacceptableStatus(
            StatusFailure(status: 404, headers: [:], body: Data(), url: Self.url))
        #expect(status.userMessage(in: "en") == "The server has no such resource (HTTP 404).")
        #expect(status.userMessage(in: "fr") == "The server has no such resource (HTTP 404).")
    }

    @Test("every transport failure has a German sentence of its own", arguments: TransportFailure.Kind.allCases)
    func everyKindIsTranslated(kind: TransportFailure.Kind) {
        let error = ErrandError.transport(TransportFailure(kind: kind, underlying: "x"))
        let german = error.userMessage(in: "de")
        #expect(!german.hasPrefix("error."), "no table entry for \(kind)")
        #expect(german != error.userMessage(in: "en"))
    }

    @Test("an app's override wins for its key and language, and only there")
    func overrideHook() {
        Localization.overrides = { key, language in
            key == "error.transport.tls" && language == "de" ? "Keine sichere Verbindung." : nil
        }
        defer { Localization.overrides = nil }
        let tls = ErrandError.transport(TransportFailure(kind: .tls, underlying: "60"))
        #expect(tls.userMessage(in: "de") == "Keine sichere Verbindung.")
        #expect(tls.userMessage(in: "en") == "A secure connection to the server could not be established.")
    }

    @Test(
        "the language follows LC_ALL, LC_MESSAGES, LANG, then the preferred languages",
        arguments: [
            (["LANG": "de_DE.UTF-8"], ["en-US"], "de"),
            (["LC_ALL": "de_AT", "LANG": "en_US.UTF-8"], [], "de"),
            (["LC_ALL": "", "LC_MESSAGES": "en_GB", "LANG": "de_DE"], [], "en"),
            (["LANG": "C.UTF-8"], ["de-DE"], "en"),
            (["LANG": "fr_FR.UTF-8"], ["fr-FR", "de-CH"], "de"),
            ([:], ["de"], "de"),
            ([:], ["ja-JP"], "en"),
        ])
    func preferredLanguage(environment: [String: String], preferred: [String], expected: String) {
        #expect(Localization.preferredLanguage(environment: environment, preferred: preferred) == expected)
    }
}
