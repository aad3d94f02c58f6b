@testable import Errand
import Foundation
import Testing

@Suite("Cache rules (RFC 9111)")
struct CacheRulesTests {
    @Test func parsesCacheControlDirectives() {
        let control = CacheControl([
            "Cache-Control": #"public, max-age=60, must-revalidate, community="UCI,x", stale-if-error=30"#,
            "cache-control": "no-cache, max-age=90",
        ])
        #expect(control.maxAge == 60)
        #expect(control.isPublic && control.mustRevalidate && control.noCache)
        #expect(control.staleIfError == 30)
        #expect(!control.noStore && !control.isPrivate)
    }

    @Test func treatsAnInvalidMaxAgeAsStale() {
        let entry = makeEntry(url: "http://h/", headers: ["Cache-Control": "max-age=soon"])
        #expect(entry.explicitLifetime == 0)
        #expect(!entry.isFresh(at: Date(), fallbackLifetime: 600))
    }

    @Test(
        "parses the three HTTP date forms",
        arguments: [
            "Sun, 06 Nov 1994 08:49:37 GMT", "Sunday, 06-Nov-94 08:49:37 GMT", "Sun Nov  6 08:49:37 1994",
        ])
    func parsesHTTPDates(text: String) {
        #expect(HTTPDate.parse(text) == Date(timeIntervalSince1970: 784_111_777))
    }

    @Test(
        "rejects what is not an HTTP date",
        arguments: [
            "", "0", "-1", "yesterday", "Sun, 32 Nov 1994 08:49:37 GMT", "Sun, 06 Foo 1994 08:49:37 GMT",
            "Sun, 06 Nov 1994 25:49:37 GMT", "Sun, 06 Nov 1994 08:49 GMT",
        ])
    func rejectsGarbageDates(text: String) {
        #expect(HTTPDate.parse(text) == nil)
    }

    @Test func computesAgeFromDateAndAgeHeaders() {
        let now = Date(timeIntervalSince1970: 1_000_000)
        let date = "Mon, 12 Jan 1970 13:46:40 GMT"  // 1_000_000 s after the epoch
        let entry = makeEntry(
            url: "http://h/", headers: ["Date": date, "Age": "30", "Cache-Control": "max-age=60"], received: now)
        #expect(entry.age(at: now) == 30)
        #expect(entry.isFresh(at: now.addingTimeInterval(29), fallbackLifetime: nil))
        #expect(!entry.isFresh(at: now.addingTimeInterval(31), fallbackLifetime: nil))
    }

    @Test func usesExpiresWhenThereIsNoMaxAge() {
        let now = Date(timeIntervalSince1970: 1_000_000)
        let entry = makeEntry(
            url: "http://h/",
            headers: ["Date": "Mon, 12 Jan 1970 13:46:40 GMT", "Expires": "Mon, 12 Jan 1970 13:48:20 GMT"],
            received: now)
        #expect(entry.explicitLifetime == 100)
        let invalid = makeEntry(url: "http://h/", headers: ["Expires": "0"], received: now)
        #expect(invalid.explicitLifetime == 0)
    }

    @Test func theTTLOverrideAppliesOnlyWithoutAStatedLifetime() {
        let now = Date()
        let silent = makeEntry(url: "http://h/", received: now)
        #expect(!silent.isFresh(at: now.addingTimeInterval(1), fallbackLifetime: nil))
        #expect(silent.isFresh(at: now.addingTimeInterval(1), fallbackLifetime: 60))
        let stated = makeEntry(url: "http://h/", headers: ["Cache-Control": "max-age=0"], received: now)
        #expect(!stated.isFresh(at: now.addingTimeInterval(1), fallbackLifetime: 60))
        let noCache = makeEntry(url: "http://h/", headers: ["Cache-Control": "no-cache, max-age=60"], received: now)
        #expect(!noCache.isFresh(at: now, fallbackLifetime: nil))
    }

    @Test func guessesALifetimeFromLastModified() {
        let now = Date(timeIntervalSince1970: 1_000_000)
        let entry = makeEntry(
            url: "http://h/",
            headers: ["Date": "Mon, 12 Jan 1970 13:46:40 GMT", "Last-Modified": "Mon, 12 Jan 1970 13:30:00 GMT"],
            received: now)
        #expect(entry.heuristicLifetime == 100)  // a tenth of 1,000 s
    }

    @Test func normalizesKeysWithoutTouchingPathOrQuery() throws {
        let url = try #require(URL(string: "HTTP://Example.COM:80/a%2Fb/C?q=A%20B#part"))
        #expect(CacheKey.primary(url) == "http://example.com/a%2Fb/C?q=A%20B")
        let https = try #require(URL(string: "https://example.com:443?x=1"))
        #expect(CacheKey.primary(https) == "https://example.com/?x=1")
        let port = try #require(URL(string: "https://example.com:8443/"))
        #expect(CacheKey.primary(port) == "https://example.com:8443/")
    }

    @Test func variantsFollowTheVaryHeader() {
        let names = CacheKey.varyNames(["Vary": "Accept-Language, accept-encoding", "vary": "Accept-Language"])
        #expect(names == ["accept-encoding", "accept-language"])
        #expect(CacheKey.varyNames(["Vary": "Accept, *"]) == ["*"])
        let english = makeEntry(
            url: "http://h/",
            variant: CacheKey.variant(names: ["accept-language"], requestHeaders: ["Accept-Language": "en"]),
            headers: ["Vary": "Accept-Language"])
        #expect(english.matches(["accept-language": " en "]))
        #expect(!english.matches(["Accept-Language": "de"]))
        #expect(!english.matches([:]))
    }

    @Test func a304ReplacesStoredHeadersButKeepsTheBody() {
        let stored = makeEntry(
            url: "http://h/",
            headers: ["ETag": "\"1\"", "Cache-Control": "max-age=0", "Content-Length": "4", "X-Old": "a"])
        let refreshed = stored.refreshed(
            with: ["Cache-Control": "max-age=60", "Content-Length": "0", "X-New": "b"], requestTime: Date(),
            responseTime: Date())
        #expect(refreshed.body == stored.body)
        #expect(refreshed.headers["Cache-Control"] == "max-age=60")
        #expect(refreshed.headers["Content-Length"] == "4")
        #expect(refreshed.headers["X-Old"] == "a" && refreshed.headers["X-New"] == "b")
        #expect(refreshed.isFresh(at: Date(), fallbackLifetime: nil))
    }

    @Test func theDefaultLocationHonoursXDGCacheHome() {
        let xdg = HTTPCache.defaultFileURL(
            named: "mealdb", environment: ["XDG_CACHE_HOME": "/var/cache/me", "HOME": "/home/me"])
        #expect(xdg.path == "/var/cache/me/errand/mealdb.sqlite")
        let home = HTTPCache.defaultFileURL(
            named: "met", environment: ["XDG_CACHE_HOME": "relative", "HOME": "/home/me"])
        #if os(Linux)
        #expect(home.path == "/home/me/.cache/errand/met.sqlite")
        #endif
        let hostile = HTTPCache.defaultFileURL(named: "../../etc/passwd", environment: ["HOME": "/home/me"])
        #expect(hostile.deletingLastPathComponent().lastPathComponent == "errand")
        #expect(!hostile.lastPathComponent.contains("/"))
    }
}

@Suite("Memory cache")
struct MemoryCacheTests {
    @Test func evictsTheLeastRecentlyUsedFirst() {
        let cache = MemoryCache<String, Int>(costLimit: 100)
        cache.set(1, for: "a", cost: 25)
        cache.set(2, for: "b", cost: 25)
        cache.set(3, for: "c", cost: 25)
        #expect(cache.value(for: "a") == 1)  // a is now the most recent
        cache.set(4, for: "d", cost: 25)
        cache.set(5, for: "e", cost: 25)
        #expect(cache.value(for: "b") == nil)
        #expect(cache.value(for: "a") == 1)
        #expect(cache.totalCost <= 100)
        #expect(cache.count == 4)
    }

    @Test func keepsNothingTooBigAndNothingAtAllWithAZeroLimit() {
        let cache = MemoryCache<String, Int>(costLimit: 100)
        cache.set(1, for: "huge", cost: 26)
        #expect(cache.value(for: "huge") == nil)
        let none = MemoryCache<String, Int>(costLimit: 0)
        none.set(1, for: "a", cost: 0)
        #expect(none.value(for: "a") == nil)
    }

    @Test func replacingAValueAdjustsTheCost() {
        let cache = MemoryCache<String, Int>(costLimit: 1_000)
        cache.set(1, for: "a", cost: 200)
        cache.set(2, for: "a", cost: 50)
        #expect(cache.totalCost == 50)
        cache.update("a") { old in ((old ?? 0) + 1, 10) }
        #expect(cache.value(for: "a") == 3 && cache.totalCost == 10)
        cache.removeValue(for: "a")
        #expect(cache.count == 0 && cache.totalCost == 0)
    }
}
