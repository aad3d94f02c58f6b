@testable import Errand
import ErrandTesting
import Foundation
import TestSupport
import Testing

/// RFC 9111's rules against the fault server's `/cache/` route, on every transport and both stores, time on a
/// manual clock. Each test counts what reached the server.
@Suite("HTTP cache rules over the wire", .enabled(if: TestServer.fault.isUsable))
struct CacheRFC9111WireTests {
    // MARK: Dates and ages (RFC 9110 §5.6.7, RFC 9111 §5.1, §5.3)

    @Test(arguments: TransportKind.allCases, StoreKind.allCases)
    func anExpiresThatIsNotAnHTTPDateIsAlreadyExpired(transport: TransportKind, store: StoreKind) async throws {
        let invalid = [
            "Thu, 18 Aug 50 12:00:00 GMT", "Thu 18 Aug 2050 12:00:00 GMT", "Thu,  18 Aug 2050 12:00:00 GMT",
            "Thu, 18-Aug-2050 12:00:00 GMT", "Thu, 18 Aug 2050 12.00.00 GMT", "Thu, 18 Aug 2050 2:00:00 GMT",
        ]
        for expires in invalid {
            let harness = try CacheHarness(transport, store)
            defer { harness.finish() }
            let route = try CacheServerRoute(["Expires: \(expires)"])
            _ = try await harness.send(route.url)
            let second = try await harness.send(route.url)
            #expect(second.cacheStatus == .miss, "\(expires)")
            #expect(try await route.count() == 2, "\(expires)")
        }
    }

    @Test(arguments: TransportKind.allCases, StoreKind.allCases)
    func theObsoleteDateFormsAreRead(transport: TransportKind, store: StoreKind) async throws {
        for expires in ["Thursday, 18-Aug-50 12:00:00 GMT", "Thu Aug 18 12:00:00 2050"] {
            let harness = try CacheHarness(transport, store)
            defer { harness.finish() }
            let route = try CacheServerRoute(["Expires: \(expires)"])
            _ = try await harness.send(route.url)
            #expect(try await harness.send(route.url).cacheStatus == .hit, "\(expires)")
            #expect(try await route.count() == 1)
        }
    }

    /// The wrong case in an `Expires` date, as the caching suite's `freshness-expires-wrong-case-weekday`, `-month`
    /// and `-tz` send it: read as the date it names, as browsers do; a zone other than GMT is still no date.
    @Test(arguments: TransportKind.allCases, StoreKind.allCases)
    func anExpiresDateIsReadInAnyCase(transport: TransportKind, store: StoreKind) async throws {
        let dates = [
            ("THU, 18 Aug 2050 02:01:18 GMT", CacheStatus.hit), ("Thu, 18 AUG 2050 02:01:18 GMT", .hit),
            ("Thu, 18 Aug 2050 02:01:18 gMT", .hit), ("thursday, 18-aug-50 02:01:18 gmt", .hit),
            ("THU AUG 18 02:01:18 2050", .hit), ("Thu, 18 Aug 2050 02:01:18 UTC", .miss),
            ("Thu, 18 Aug 2050 02:01:18 utc", .miss), ("Thx, 18 Aug 2050 02:01:18 GMT", .miss),
        ]
        for (expires, status) in dates {
            let harness = try CacheHarness(transport, store)
            defer { harness.finish() }
            let route = try CacheServerRoute(["Expires: \(expires)"])
            _ = try await harness.send(route.url)
            #expect(try await harness.send(route.url).cacheStatus == status, "\(expires)")
            #expect(try await route.count() == (status == .hit ? 1 : 2), "\(expires)")
        }
    }

    @Test(arguments: TransportKind.allCases, StoreKind.allCases)
    func anAgeThatIsNotOneNonNegativeIntegerIsIgnored(transport: TransportKind, store: StoreKind) async throws {
        for ages in [["Age: 7200.0"], ["Age: -7200"], ["Age: abc"], ["Age: abc, 7200"], ["Age: abc", "Age: 7200"]] {
            let harness = try CacheHarness(transport, store)
            defer { harness.finish() }
            let route = try CacheServerRoute(["Cache-Control: max-age=3600"] + ages)
            _ = try await harness.send(route.url)
            #expect(try await harness.send(route.url).cacheStatus == .hit, "\(ages)")
            #expect(try await route.count() == 1, "\(ages)")
        }
    }

    /// The caching suite's `age-parse-suffix`, `-suffix-twoline`, `-prefix`, `-prefix-twoline`, `-dup-0`,
    /// `-dup-0-twoline` and `-dup-old`: a list's first member counts, and of several lines the first (RFC 9111 §5.1),
    /// whether the transport kept the lines apart or joined them.
    @Test(arguments: TransportKind.allCases, StoreKind.allCases)
    func theFirstAgeOfAListOrOfSeveralLinesCounts(transport: TransportKind, store: StoreKind) async throws {
        let cases: [(lines: [String], status: CacheStatus)] = [
            (["Cache-Control: max-age=3600", "Age: 7200, 0"], .miss),
            (["Cache-Control: max-age=3600", "Age: 7200", "Age: 0"], .miss),
            (["Cache-Control: max-age=3600", "Age: 0, 7200"], .hit),
            (["Cache-Control: max-age=3600", "Age: 0", "Age: 7200"], .hit),
            (["Cache-Control: max-age=3600", "Age: 0, 0"], .hit),
            (["Cache-Control: max-age=3600", "Age: 0", "Age: 0"], .hit),
            (["Cache-Control: max-age=10000", "Age: 3600", "Age: 3600"], .hit),
            (["Cache-Control: max-age=10000", "Age:  3600 ,7200"], .hit),
        ]
        for (lines, status) in cases {
            let harness = try CacheHarness(transport, store)
            defer { harness.finish() }
            let route = try CacheServerRoute(lines)
            _ = try await harness.send(route.url)
            #expect(try await harness.send(route.url).cacheStatus == status, "\(lines)")
            #expect(try await route.count() == (status == .hit ? 1 : 2), "\(lines)")
        }
    }

    @Test(arguments: TransportKind.allCases, StoreKind.allCases)
    func aValidOrHugeAgeAgesTheResponse(transport: TransportKind, store: StoreKind) async throws {
        for age in ["7200", "99999999999999999999999999"] {
            let harness = try CacheHarness(transport, store)
            defer { harness.finish() }
            let route = try CacheServerRoute(["Cache-Control: max-age=3600", "Age: \(age)"])
            _ = try await harness.send(route.url)
            let second = try await harness.send(route.url)
            #expect(second.cacheStatus == .miss, "\(age)")
            #expect(try await route.count() == 2)
        }
    }

    // MARK: What is stored (§3.1)

    @Test(arguments: TransportKind.allCases, StoreKind.allCases)
    func hopByHopAndConnectionListedFieldsAreNotReplayed(transport: TransportKind, store: StoreKind) async throws {
        let harness = try CacheHarness(transport, store)
        defer { harness.finish() }
        let route = try CacheServerRoute([
            "Cache-Control: max-age=3600", "Connection: X-Hop, keep-alive", "X-Hop: 1", "Keep-Alive: timeout=5",
            "X-Kept: 2",
        ])
        _ = try await harness.send(route.url)
        let hit = try await harness.send(route.url)
        #expect(hit.cacheStatus == .hit)
        #expect(hit.headers["X-Kept"] == "2")
        #expect(hit.headers["X-Hop"] == nil && hit.headers["Keep-Alive"] == nil && hit.headers["Connection"] == nil)
    }

    @Test(arguments: TransportKind.allCases, StoreKind.allCases)
    func repeatedLinesAreStoredAsOneWhicheverTransportReadThem(transport: TransportKind, store: StoreKind)
        async throws
    {
        let harness = try CacheHarness(transport, store)
        defer { harness.finish() }
        let route = try CacheServerRoute([
            "Cache-Control: max-age=3600", "X-Multi: a", "X-Multi: b", "Set-Cookie: a=1", "Set-Cookie: b=2",
        ])
        _ = try await harness.send(route.url)
        let hit = try await harness.send(route.url)
        #expect(hit.cacheStatus == .hit)
        #expect(hit.headers.values(for: "X-Multi") == ["a, b"])
    }

    @Test(arguments: TransportKind.allCases, StoreKind.allCases)
    func aQualifiedNoCacheStoresTheResponseWithoutTheNamedFields(transport: TransportKind, store: StoreKind)
        async throws
    {
        let harness = try CacheHarness(transport, store)
        defer { harness.finish() }
        let route = try CacheServerRoute([
            #"Cache-Control: max-age=3600, no-cache="X-Secret, X-Other""#, "X-Secret: s", "X-Other: o", "X-Kept: k",
        ])
        let first = try await harness.send(route.url)
        #expect(first.headers["X-Secret"] == "s")
        let hit = try await harness.send(route.url)
        #expect(hit.cacheStatus == .hit)
        #expect(hit.headers["X-Secret"] == nil && hit.headers["X-Other"] == nil && hit.headers["X-Kept"] == "k")
        #expect(try await route.count() == 1)
    }

    @Test(arguments: TransportKind.allCases, StoreKind.allCases)
    func aQualifiedPrivateIsStoredWholeByThisPrivateCache(transport: TransportKind, store: StoreKind) async throws {
        let harness = try CacheHarness(transport, store)
        defer { harness.finish() }
        let route = try CacheServerRoute([#"Cache-Control: max-age=3600, private="X-User""#, "X-User: me"])
        _ = try await harness.send(route.url)
        let hit = try await harness.send(route.url)
        #expect(hit.cacheStatus == .hit && hit.headers["X-User"] == "me")
    }

    // MARK: Request directives (§5.2.1, §5.4)

    @Test(arguments: TransportKind.allCases, StoreKind.allCases)
    func aRequestMaxAgeRefusesOlderResponses(transport: TransportKind, store: StoreKind) async throws {
        let harness = try CacheHarness(transport, store)
        defer { harness.finish() }
        let route = try CacheServerRoute(["Cache-Control: max-age=3600"])
        _ = try await harness.send(route.url)
        harness.advance(seconds: 120)
        #expect(try await harness.send(route.url, headers: ["Cache-Control": "max-age=600"]).cacheStatus == .hit)
        #expect(try await harness.send(route.url, headers: ["Cache-Control": "max-age=60"]).cacheStatus == .miss)
        let option = try await harness.send(route.url, options: RequestCacheControl(maxAge: .seconds(0)))
        #expect(option.cacheStatus == .miss)
        #expect(try await route.count() == 3)
    }

    /// The caching suite's `cc-resp-immutable-fresh` and `cc-resp-immutable-stale`: a reload (`max-age=0`, what
    /// a browser's reload and Fetch's `no-cache` mode send) is served a fresh `immutable` response from the cache,
    /// and revalidates it once stale; a request `no-cache` always revalidates.
    @Test(arguments: TransportKind.allCases, StoreKind.allCases)
    func aFreshImmutableResponseAnswersAReloadFromTheCache(transport: TransportKind, store: StoreKind) async throws {
        let harness = try CacheHarness(transport, store)
        defer { harness.finish() }
        let route = try CacheServerRoute(["Cache-Control: max-age=100, immutable"], extra: ["etag": "\"e\""])
        _ = try await harness.send(route.url)
        #expect(try await harness.send(route.url, headers: ["Cache-Control": "max-age=0"]).cacheStatus == .hit)
        let option = try await harness.send(route.url, options: RequestCacheControl(maxAge: .seconds(0)))
        #expect(option.cacheStatus == .hit)
        #expect(try await route.count() == 1)
        #expect(try await harness.send(route.url, headers: ["Cache-Control": "no-cache"]).cacheStatus == .revalidated)
        #expect(try await route.count() == 2)
        harness.advance(seconds: 200)
        let stale = try await harness.send(route.url, headers: ["Cache-Control": "max-age=0"])
        #expect(stale.cacheStatus == .revalidated)
        let log = try await route.log()
        #expect(log.count == 3 && log.last?.headers["If-None-Match"] == "\"e\"")
    }

    @Test(arguments: TransportKind.allCases, StoreKind.allCases)
    func minFreshAsksForFreshnessLeft(transport: TransportKind, store: StoreKind) async throws {
        let harness = try CacheHarness(transport, store)
        defer { harness.finish() }
        let route = try CacheServerRoute(["Cache-Control: max-age=100"])
        _ = try await harness.send(route.url)
        harness.advance(seconds: 50)
        #expect(try await harness.send(route.url, headers: ["Cache-Control": "min-fresh=10"]).cacheStatus == .hit)
        #expect(try await harness.send(route.url, headers: ["Cache-Control": "min-fresh=60"]).cacheStatus == .miss)
        let option = try await harness.send(route.url, options: RequestCacheControl(minFresh: .seconds(200)))
        #expect(option.cacheStatus == .miss)
        #expect(try await route.count() == 3)
    }

    @Test(arguments: TransportKind.allCases, StoreKind.allCases)
    func maxStaleAcceptsStaleResponses(transport: TransportKind, store: StoreKind) async throws {
        let harness = try CacheHarness(transport, store)
        defer { harness.finish() }
        let route = try CacheServerRoute(["Cache-Control: max-age=10"])
        let first = try await harness.send(route.url)
        harness.advance(seconds: 100)
        let within = try await harness.send(route.url, headers: ["Cache-Control": "max-stale=200"])
        #expect(within.cacheStatus == .stale && within.data == first.data)
        #expect(try await harness.send(route.url, headers: ["Cache-Control": "max-stale"]).cacheStatus == .stale)
        let option = try await harness.send(route.url, options: RequestCacheControl(maxStale: .seconds(95)))
        #expect(option.cacheStatus == .stale)
        #expect(try await route.count() == 1)
        #expect(try await harness.send(route.url, headers: ["Cache-Control": "max-stale=50"]).cacheStatus == .miss)
        #expect(try await route.count() == 2)
    }

    @Test(arguments: TransportKind.allCases, StoreKind.allCases)
    func maxStaleNeverServesAMustRevalidateResponseStale(transport: TransportKind, store: StoreKind) async throws {
        let harness = try CacheHarness(transport, store)
        defer { harness.finish() }
        let route = try CacheServerRoute(["Cache-Control: max-age=10, must-revalidate"])
        _ = try await harness.send(route.url)
        harness.advance(seconds: 100)
        #expect(try await harness.send(route.url, headers: ["Cache-Control": "max-stale"]).cacheStatus == .miss)
        #expect(try await route.count() == 2)
    }

    @Test(arguments: TransportKind.allCases, StoreKind.allCases)
    func onlyIfCachedAnswers504WhenNothingUsableIsStored(transport: TransportKind, store: StoreKind) async throws {
        let harness = try CacheHarness(transport, store)
        defer { harness.finish() }
        let route = try CacheServerRoute(["Cache-Control: max-age=10"])
        let nothing = try await harness.send(route.url, headers: ["Cache-Control": "only-if-cached"])
        #expect(nothing.status == 504)
        #expect(try await route.count() == 0 && harness.counter.count == 0)
        _ = try await harness.send(route.url)
        #expect(try await harness.send(route.url, headers: ["Cache-Control": "only-if-cached"]).status == 200)
        harness.advance(seconds: 100)
        #expect(try await harness.send(route.url, headers: ["Cache-Control": "only-if-cached"]).status == 504)
        #expect(try await route.count() == 1)
    }

    @Test(arguments: TransportKind.allCases, StoreKind.allCases)
    func anHourStaleAndNeverTheNetworkIsOneOption(transport: TransportKind, store: StoreKind) async throws {
        let harness = try CacheHarness(transport, store)
        defer { harness.finish() }
        let route = try CacheServerRoute(["Cache-Control: max-age=10"])
        let first = try await harness.send(route.url)
        harness.advance(seconds: 1_800)
        let offline = RequestCacheControl.onlyIfCached(maxStale: .seconds(3_600))
        let stale = try await harness.send(route.url, options: offline)
        #expect(stale.status == 200 && stale.cacheStatus == .stale && stale.data == first.data)
        harness.advance(seconds: 3_600)
        #expect(try await harness.send(route.url, options: offline).status == 504)
        #expect(try await route.count() == 1)
    }

    @Test(arguments: TransportKind.allCases, StoreKind.allCases)
    func pragmaNoCacheIsIgnoredBesideCacheControl(transport: TransportKind, store: StoreKind) async throws {
        let harness = try CacheHarness(transport, store)
        defer { harness.finish() }
        let route = try CacheServerRoute(["Cache-Control: max-age=3600"])
        _ = try await harness.send(route.url)
        let both = try await harness.send(route.url, headers: ["Pragma": "no-cache", "Cache-Control": "max-stale"])
        #expect(both.cacheStatus == .hit)
        #expect(try await harness.send(route.url, headers: ["Pragma": "no-cache"]).cacheStatus == .miss)
        #expect(try await route.count() == 2)
    }

    // MARK: stale-while-revalidate (RFC 5861)

    @Test(arguments: TransportKind.allCases, StoreKind.allCases)
    func staleWhileRevalidateServesStaleAndRevalidatesOnceInTheBackground(
        transport: TransportKind, store: StoreKind
    ) async throws {
        let gate = RevalidationGate()
        let harness = try CacheHarness(transport, store, below: [gate])
        defer { harness.finish() }
        let route = try CacheServerRoute(
            ["Cache-Control: max-age=10, stale-while-revalidate=100", "X-Version: 1"],
            later: ["Cache-Control: max-age=3600", "X-Version: 2"], extra: ["etag": "\"e\""])
        let first = try await harness.send(route.url)
        harness.advance(seconds: 50)
        let stale = try await harness.send(route.url)
        #expect(stale.cacheStatus == .stale && stale.data == first.data && stale.headers["X-Version"] == "1")
        await gate.waitForArrival()
        // While the revalidation waits at the gate, more stale answers join it rather than start their own.
        for _ in 0..<3 { #expect(try await harness.send(route.url).cacheStatus == .stale) }
        #expect(harness.cache.revalidator.running == 1)
        gate.open()
        await harness.cache.backgroundRevalidationsSettled()
        let log = try await route.log()
        #expect(log.count == 2)
        #expect(log.last?.headers["If-None-Match"] == "\"e\"")
        let fresh = try await harness.send(route.url)
        #expect(fresh.cacheStatus == .hit && fresh.headers["X-Version"] == "2" && fresh.data == first.data)
        #expect(try await route.count() == 2)
    }

    @Test(arguments: TransportKind.allCases, StoreKind.allCases)
    func aFailedBackgroundRevalidationIsReportedNotThrown(transport: TransportKind, store: StoreKind) async throws {
        let network = NetworkSwitch()
        let harness = try CacheHarness(transport, store, below: [network])
        defer { harness.finish() }
        let route = try CacheServerRoute(["Cache-Control: max-age=10, stale-while-revalidate=100"])
        _ = try await harness.send(route.url)
        harness.advance(seconds: 50)
        network.cut()
        #expect(try await harness.send(route.url).cacheStatus == .stale)
        await harness.cache.backgroundRevalidationsSettled()
        let failures = harness.recorder.events.filter { $0.error != nil && $0.cacheStatus == .stale }
        #expect(failures.count == 1)
        #expect(harness.cache.revalidator.running == 0)
        harness.advance(seconds: 100)
        // Past the window: the cache must ask, and the failure now reaches the caller.
        await #expect(throws: ErrandError.self) { try await harness.send(route.url) }
    }

    // MARK: HEAD (RFC 9110 §9.3.2, RFC 9111 §4.3.5)

    @Test(arguments: TransportKind.allCases, StoreKind.allCases)
    func aHeadIsAnsweredFromAStoredGet(transport: TransportKind, store: StoreKind) async throws {
        let harness = try CacheHarness(transport, store)
        defer { harness.finish() }
        let route = try CacheServerRoute(["Cache-Control: max-age=3600", "X-Version: 1"])
        _ = try await harness.send(route.url)
        let head = try await harness.send(route.url, method: .head)
        #expect(head.cacheStatus == .hit && head.status == 200)
        #expect(head.data.isEmpty && head.headers["X-Version"] == "1")
        #expect(try await route.count() == 1)
    }

    @Test(arguments: TransportKind.allCases, StoreKind.allCases)
    func aHeadResponseFreshensTheStoredGet(transport: TransportKind, store: StoreKind) async throws {
        let harness = try CacheHarness(transport, store)
        defer { harness.finish() }
        let route = try CacheServerRoute(
            ["Cache-Control: max-age=10", "X-Version: 1"], later: ["Cache-Control: max-age=3600", "X-Version: 2"],
            extra: ["etag": "\"e\""])
        let first = try await harness.send(route.url)
        harness.advance(seconds: 100)
        let head = try await harness.send(route.url, method: .head)
        #expect(head.cacheStatus == .miss && head.headers["X-Version"] == "2")
        let get = try await harness.send(route.url)
        #expect(get.cacheStatus == .hit && get.headers["X-Version"] == "2" && get.data == first.data)
        #expect(try await route.log().map(\.method) == ["GET", "HEAD"])
    }

    // MARK: Invalidation (§4.4)

    @Test(arguments: TransportKind.allCases, StoreKind.allCases)
    func anUnsafeRequestInvalidatesSameOriginLocationAndContentLocation(transport: TransportKind, store: StoreKind)
        async throws
    {
        let harness = try CacheHarness(transport, store)
        defer { harness.finish() }
        let located = try CacheServerRoute(["Cache-Control: max-age=3600"])
        let contentLocated = try CacheServerRoute(["Cache-Control: max-age=3600"])
        let elsewhere = try CacheServerRoute(["Cache-Control: max-age=3600"])
        for route in [located, contentLocated, elsewhere] { _ = try await harness.send(route.url) }
        // The same path on another origin (localhost is not 127.0.0.1) must not be touched.
        let otherOrigin = try #require(
            URL(string: elsewhere.url.absoluteString.replacingOccurrences(of: "127.0.0.1", with: "localhost")))
        let post = try CacheServerRoute(
            [], extra: ["location": located.pathAndQuery, "content-location": contentLocated.url.absoluteString])
        let otherPost = try CacheServerRoute([], extra: ["location": otherOrigin.absoluteString])
        #expect(try await harness.send(post.url, method: .post).status == 200)
        #expect(try await harness.send(otherPost.url, method: .post).status == 200)

        #expect(try await harness.send(located.url).cacheStatus == .miss)
        #expect(try await harness.send(contentLocated.url).cacheStatus == .miss)
        #expect(try await harness.send(elsewhere.url).cacheStatus == .hit)
    }

    // MARK: Ranges (RFC 9110 §14)

    @Test(arguments: TransportKind.allCases, StoreKind.allCases)
    func aRangeIsAnsweredFromAFreshCompleteResponse(transport: TransportKind, store: StoreKind) async throws {
        let harness = try CacheHarness(transport, store)
        defer { harness.finish() }
        let route = try CacheServerRoute(["Cache-Control: max-age=3600"], extra: ["body": "0123456789"])
        let whole = try await harness.send(route.url)
        #expect(whole.data == Data("0123456789 1".utf8))
        let part = try await harness.send(route.url, headers: ["Range": "bytes=2-5"])
        #expect(part.status == 206 && part.cacheStatus == .hit && part.data == Data("2345".utf8))
        #expect(part.headers["Content-Range"] == "bytes 2-5/12" && part.headers["Content-Length"] == "4")
        let suffix = try await harness.send(route.url, headers: ["Range": "bytes=-3"])
        #expect(suffix.status == 206 && suffix.data == Data("9 1".utf8))
        #expect(try await route.count() == 1)
        // Several ranges are the server's to answer (it ignores Range, so this is a whole 200).
        let several = try await harness.send(route.url, headers: ["Range": "bytes=0-1,3-4"])
        #expect(several.status == 200 && several.cacheStatus == .miss)
        #expect(try await route.count() == 2)
    }

    // MARK: Content codings (RFC 9110 §8.4)

    @Test(arguments: TransportKind.allCases, StoreKind.allCases)
    func anUnknownContentCodingPassesThroughWithItsField(transport: TransportKind, store: StoreKind) async throws {
        let harness = try CacheHarness(transport, store)
        defer { harness.finish() }
        let route = try CacheServerRoute(["Cache-Control: max-age=3600", "Content-Encoding: foo"])
        #if canImport(FoundationNetworking)
        if transport == .urlSession {
            // FoundationNetworking's libcurl refuses codings it does not know before Errand sees the body; Apple's
            // URLSession passes them through. The failure is named for what it is.
            await #expect {
                try await harness.send(route.url)
            } throws: { error in
                guard case .transport(let failure) = error as? ErrandError else { return false }
                return failure.kind == .badResponse
            }
            return
        }
        #endif
        let first = try await harness.send(route.url)
        #expect(first.status == 200 && first.data == Data("body 1".utf8))
        #expect(first.headers["Content-Encoding"] == "foo")
        let hit = try await harness.send(route.url)
        #expect(hit.cacheStatus == .hit && hit.data == first.data && hit.headers["Content-Encoding"] == "foo")
    }
}

/// Holds conditional requests (a revalidation's) until the test opens it; others pass at once.
final class RevalidationGate: Middleware {
    private let gate = TestSupport.Gate()

    func waitForArrival() async { await gate.waitForArrival() }

    func open() { gate.open() }

    func intercept(_ request: TransportRequest, context: MiddlewareContext, next: Next) async throws
        -> TransportResponse
    {
        if request.headers.contains("If-None-Match") { await gate.pass() }
        return try await next(request)
    }
}
