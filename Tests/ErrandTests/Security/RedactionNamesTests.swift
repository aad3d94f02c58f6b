import Errand
import Foundation
import Testing

/// Redaction names compare without case however they get into the rules, and the always-secret fields stay secret.
@Suite("Security: redaction names")
struct RedactionNamesTests {
    @Test("names compare without case however they get into the rules")
    func caseInsensitiveNames() {
        var names: CaseInsensitiveNames = ["X-API-Key"]
        #expect(names.contains("x-api-key") && names.contains("X-API-KEY"))
        #expect(names.insert("x-api-KEY").inserted == false)
        names.insert("apiKey")
        names.formUnion(["Session-ID"])
        names.formUnion(Set(["TOKEN"]))
        #expect(names.union(["other"]).contains("OTHER"))
        #expect(Set(names) == ["x-api-key", "apikey", "session-id", "token"])
        #expect(names.remove("APIKEY") == "apikey")
        #expect(!names.contains("apikey"))
        #expect(CaseInsensitiveNames(["A", "a"]).count == 1)

        var rules = Redaction(headerNames: ["X-One"], queryNames: ["One"])
        rules.headerNames.insert("X-Two")
        rules.queryNames.insert("Two")
        let headers = rules.redact(
            HTTPHeaders([
                .init(name: "x-one", value: "v1"), .init(name: "X-TWO", value: "v2"), .init(name: "x", value: "v3"),
            ]))
        #expect(headers.fields.map(\.value) == [Redaction.mask, Redaction.mask, "v3"])
        let url = rules.redact(URL(string: "https://api.test/s?ONE=v1&two=v2&x=v3")!)
        #expect(url == "https://api.test/s?ONE=***&two=***&x=v3")
        #expect(rules.redact(text: "called /s?tWo=v2 and /s?One=v1") == "called /s?tWo=*** and /s?One=***")
    }

    @Test("the always-secret fields stay secret even when the rules' names are emptied")
    func alwaysSecret() {
        var rules = Redaction()
        rules.headerNames = []
        let headers = rules.redact(["authorization": "Bearer t0ken", "COOKIE": "a=b", "Proxy-Authorization": "Basic x"])
        #expect(headers.fields.allSatisfy { $0.value == Redaction.mask })
    }
}
