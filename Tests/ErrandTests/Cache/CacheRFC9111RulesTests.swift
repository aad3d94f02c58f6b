@testable import Errand
import Foundation
import Testing

/// The parsers and decisions of the cache, without a wire.
@Suite("Cache rules to the letter (RFC 9110, RFC 9111)")
struct CacheRFC9111RulesTests {
    @Test(
        "rejects what RFC 9110 §5.6.7 does not allow",
        arguments: [
            "Thu, 18 Aug 50 12:00:00 GMT", "Thu 18 Aug 2050 12:00:00 GMT", "Thu,  18 Aug 2050 12:00:00 GMT",
            "Thu, 18-Aug-2050 12:00:00 GMT", "Thu, 18 Aug 2050 12.00.00 GMT", "Thu, 18 Aug 2050 2:00:00 GMT",
            "Thu, 31 Apr 2050 12:00:00 GMT", "Thu, 18 Aug 2050 12:00:00 utc", "Thx, 18 Aug 2050 12:00:00 GMT",
            "Thu, 29 Feb 2050 12:00:00 GMT", "Thu, 18 Aug 2050 12:00:00 UTC",
            " Thu, 18 Aug 2050 12:00:00 GMT", "Thu, 18 Aug 2050 12:00:00 GMT ", "Xyz, 18 Aug 2050 12:00:00 GMT",
            "Thursday, 18-Aug-2050 12:00:00 GMT", "Thursday, 18 Aug 50 12:00:00 GMT", "Thu Aug 18 12:00:00 50",
            "Thu Aug 18 2:00:00 2050", "Thu Aug 118 12:00:00 2050", "Thu, 18 Aug 2050 12:00:00 GMT\u{0}",
            "Thu, 18 Aug 2050 24:00:00 GMT", "Thu, 18 Aug 2050 12:60:00 GMT", "Thu, 00 Aug 2050 12:00:00 GMT",
        ])
    func rejectsLenientDates(text: String) {
        #expect(HTTPDate.parse(text) == nil)
    }

    @Test func readsTheThreeFormsAndLeapDays() {
        let expected = Date(timeIntervalSince1970: 784_111_777)
        #expect(HTTPDate.parse("Sun, 06 Nov 1994 08:49:37 GMT") == expected)
        #expect(HTTPDate.parse("Sun Nov  6 08:49:37 1994") == expected)
        #expect(HTTPDate.parse("Sun Nov 06 08:49:37 1994") == expected)
        #expect(HTTPDate.parse("Tue, 29 Feb 2000 00:00:00 GMT") == Date(timeIntervalSince1970: 951_782_400))
    }

    /// Day names, months and `GMT` in any case, as every browser reads them (the caching suite's
    /// `freshness-expires-wrong-case-weekday`, `-month` and `-tz`); other letters are still no date.
    @Test func readsTheLettersInAnyCase() {
        let expected = Date(timeIntervalSince1970: 784_111_777)
        for text in [
            "SUN, 06 Nov 1994 08:49:37 GMT", "Sun, 06 NOV 1994 08:49:37 GMT", "Sun, 06 Nov 1994 08:49:37 gMT",
            "sun, 06 nov 1994 08:49:37 gmt", "SUNDAY, 06-NOV-94 08:49:37 GMT", "sun nov  6 08:49:37 1994",
        ] {
            #expect(HTTPDate.parse(text, now: expected) == expected, "\(text)")
        }
    }

    @Test func anRFC850YearMoreThanFiftyYearsAheadIsInThePast() {
        let now = Date(timeIntervalSince1970: 1_796_083_200)  // 2026-12-01
        let in2060 = HTTPDate.parse("Wednesday, 01-Dec-60 00:00:00 GMT", now: now)
        #expect(in2060 == HTTPDate.parse("Wed, 01 Dec 2060 00:00:00 GMT"))
        let in1994 = HTTPDate.parse("Sunday, 06-Nov-94 08:49:37 GMT", now: now)
        #expect(in1994 == Date(timeIntervalSince1970: 784_111_777))
    }

    @Test func deltaSecondsAreDigitsOnlyAndSaturate() {
        #expect(CacheControl.deltaSeconds("60") == 60)
        for text in ["", "6.0", "-1", "+1", " 1", "1 ", "0x10", "١٢"] {
            #expect(CacheControl.deltaSeconds(text) == nil)
        }
        #expect(CacheControl.deltaSeconds(String(repeating: "9", count: 400)) == 2_147_483_648)
    }

    @Test func readsTheRequestDirectives() {
        let control = CacheControl(values: [
            "max-age=5, min-fresh=7, max-stale", #"only-if-cached, no-cache="a", stale-while-revalidate=30"#,
        ])
        #expect(control.maxAge == 5 && control.minFresh == 7 && control.maxStale == CacheControl.unlimitedStaleness)
        #expect(control.onlyIfCached && control.staleWhileRevalidate == 30)
        #expect(!control.noCache && control.noCacheFields == ["a"])
        #expect(CacheControl(values: ["max-stale=9"]).maxStale == 9)
        #expect(!CacheControl(values: ["proxy-revalidate"]).mustRevalidate)
    }

    @Test func theOptionsMergeIntoTheFieldTakingTheStricter() {
        let field = CacheControl(values: ["max-age=60, max-stale=100"])
        let merged = RequestCacheControl(maxAge: .seconds(30), maxStale: .seconds(500), onlyIfCached: true)
            .merged(into: field)
        #expect(merged.maxAge == 30 && merged.maxStale == 100 && merged.onlyIfCached)
        let any = RequestCacheControl.onlyIfCached().merged(into: CacheControl())
        #expect(any.maxStale == CacheControl.unlimitedStaleness && any.onlyIfCached)
    }

    @Test func decidesHowAStoredResponseMayBeUsed() {
        let now = Date(timeIntervalSince1970: 1_000_000)
        func entry(_ cacheControl: String) -> CachedResponse {
            makeEntry(url: "http://h/", headers: ["Cache-Control": cacheControl], received: now)
        }
        func use(_ stored: CachedResponse, after seconds: TimeInterval, _ request: String = "") -> StoredResponseUse {
            stored.use(
                for: CacheControl(values: [request]), at: now.addingTimeInterval(seconds), fallbackLifetime: nil)
        }
        let plain = entry("max-age=100")
        #expect(use(plain, after: 50) == .fresh)
        #expect(use(plain, after: 50, "max-age=40") == .validate)
        #expect(use(plain, after: 50, "min-fresh=60") == .validate)
        #expect(use(plain, after: 150) == .validate)
        #expect(use(plain, after: 150, "max-stale=60") == .acceptedStale)
        #expect(use(plain, after: 150, "max-stale=40") == .validate)
        #expect(use(plain, after: 50, "no-cache") == .validate)
        #expect(use(entry("max-age=100, must-revalidate"), after: 150, "max-stale") == .validate)
        let swr = entry("max-age=100, stale-while-revalidate=60")
        #expect(use(swr, after: 150) == .staleWhileRevalidate)
        #expect(use(swr, after: 170) == .validate)
        #expect(use(swr, after: 150, "max-age=200") == .validate)
        #expect(use(entry("no-cache, max-age=100"), after: 0) == .validate)
        #expect(use(entry(#"no-cache="X-A", max-age=100"#), after: 0) == .fresh)
    }

    @Test func storesNeitherHopByHopNorNamedFieldsAndJoinsRepeatedLines() {
        let stored = CachedResponse.storedFields(of: [
            "Connection": "X-Hop", "X-Hop": "1", "Keep-Alive": "5", "Transfer-Encoding": "chunked",
            "Cache-Control": #"no-cache="X-Secret""#, "X-Secret": "s", "Vary": "A", "vary": "B",
            "Set-Cookie": "a=1", "set-cookie": "b=2", "X-Kept": "k",
        ])
        #expect(stored.map(\.name) == ["Cache-Control", "Vary", "Set-Cookie", "set-cookie", "X-Kept"])
        #expect(stored["Vary"] == "A, B")
    }

    @Test func theFirstAgeOfTwoLinesOrAListCounts() {
        let now = Date(timeIntervalSince1970: 1_000_000)
        let twoLines = makeEntry(url: "http://h/", headers: ["Age": "7200", "age": "0"], received: now)
        let list = makeEntry(url: "http://h/", headers: ["Age": "7200, 0"], received: now)
        let decimal = makeEntry(url: "http://h/", headers: ["Age": "7200.0"], received: now)
        let valid = makeEntry(url: "http://h/", headers: ["Age": "7200"], received: now)
        #expect(twoLines.age(at: now) == 7200 && list.age(at: now) == 7200 && decimal.age(at: now) == 0)
        #expect(valid.age(at: now) == 7200)
        let read: [String: Int?] = [
            "0, 7200": 0, " 30\t, 7200": 30, "7200,": 7200, "": nil, ",7200": nil, "-1, 5": nil, "1 2": nil,
        ]
        for (value, seconds) in read { #expect(CachedResponse.ageSeconds(value) == seconds, "\(value)") }
    }

    @Test func immutableOverridesARequestMaxAgeOnlyWhileFresh() {
        func use(_ control: String, after seconds: TimeInterval, request: String) -> StoredResponseUse {
            let now = Date(timeIntervalSince1970: 1_000_000)
            return makeEntry(url: "http://h/", headers: ["Cache-Control": control], received: now).use(
                for: CacheControl(values: [request]), at: now + seconds, fallbackLifetime: nil)
        }
        #expect(use("max-age=100, immutable", after: 50, request: "max-age=0") == .fresh)
        #expect(use("max-age=100", after: 50, request: "max-age=0") == .validate)
        #expect(use("max-age=100, immutable", after: 150, request: "max-age=0") == .validate)
        #expect(use("max-age=100, immutable", after: 50, request: "no-cache") == .validate)
        #expect(use("max-age=100, immutable", after: 50, request: "min-fresh=60") == .validate)
    }

    @Test func readsOneSatisfiableByteRange() {
        #expect(RangeAnswer("bytes=2-5", length: 10).map { [$0.first, $0.last] } == [2, 5])
        #expect(RangeAnswer("bytes=2-", length: 10).map { [$0.first, $0.last] } == [2, 9])
        #expect(RangeAnswer("bytes=-3", length: 10).map { [$0.first, $0.last] } == [7, 9])
        #expect(RangeAnswer("bytes=-30", length: 10).map { [$0.first, $0.last] } == [0, 9])
        #expect(RangeAnswer("bytes=5-100", length: 10).map { [$0.first, $0.last] } == [5, 9])
        for refused in ["bytes=10-", "bytes=5-2", "bytes=0-1,3-4", "items=0-1", "bytes=-0", "bytes=-", "bytes=a-b"] {
            #expect(RangeAnswer(refused, length: 10) == nil, "\(refused)")
        }
        let coded = makeEntry(url: "http://h/", headers: ["Content-Encoding": "gzip"])
        #expect(RangeAnswer("bytes=0-1", of: coded) == nil)
    }

    @Test func backgroundRevalidationsStartOncePerKey() {
        var machine = BackgroundRevalidations()
        #expect(machine.state(of: "a") == .idle)
        #expect(machine.servedStale("a") == .start)
        #expect(machine.state(of: "a") == .revalidating)
        #expect(machine.servedStale("a") == .none)
        #expect(machine.servedStale("b") == .start)
        #expect(machine.count == 2)
        #expect(machine.finished("a") == .none)
        #expect(machine.state(of: "a") == .idle && machine.count == 1)
        #expect(machine.servedStale("a") == .start)
        #expect(machine.finished("c") == .none && machine.count == 2)
    }

    @Test func aFileOfTheOldSchemaIsEmptiedNotFailed() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let file = folder.file("c.sqlite")
        do {
            let store = try SQLiteStore(fileURL: file, sizeLimit: 1_000_000)
            store.store(makeEntry(url: "http://h/a", headers: ["Connection": "X-Hop", "X-Hop": "1"]))
        }
        do {
            let connection = try SQLiteConnection(path: file.path)
            try connection.execute("PRAGMA user_version = 1")
        }
        let reopened = try SQLiteStore(fileURL: file, sizeLimit: 1_000_000)
        #expect(reopened.entryCount == 0)
        reopened.store(makeEntry(url: "http://h/b"))
        #expect(reopened.responses(for: "http://h/b").count == 1)
    }
}
