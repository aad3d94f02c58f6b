@testable import Errand
import ErrandTesting
import Foundation
import Testing

/// The jar at its limits: eviction keeps the limits and its own bookkeeping bounded however many cookies pass
/// through. Counts only; the times these runs take are printed for the benchmark notes, not asserted.
@Suite("Cookie jar at scale")
struct CookieJarScaleTests {
    let clock = ManualClock()

    @Test func aResponseOf20000FieldsKeepsTheDomainLimitInBoundedMemory() throws {
        let jar = CookieJar(publicSuffixes: .singleLabel, clock: clock)
        let fields = (0..<20_000).map { HTTPHeaders.Field(name: "Set-Cookie", value: "c\($0)=\($0); Path=/") }
        let started = ContinuousClock.now
        jar.receive(HTTPHeaders(fields), from: URL(string: "https://big.example.com/")!)
        print("20,000 Set-Cookie fields in one response: \(ContinuousClock.now - started)")
        let kept = jar.cookies(for: URL(string: "https://big.example.com/")!)
        #expect(kept.count == 180)
        // The most recent 180, in the order they were set.
        #expect(kept.map(\.name) == (19_820..<20_000).map { "c\($0)" })
        #expect(jar.queueSizes.usage <= 2 * 180 + 64 && jar.queueSizes.expiry == 0)
    }

    @Test func beyondTheTotalEachInsertEvictsOneAndTheQueuesStayBounded() throws {
        let jar = CookieJar(publicSuffixes: .singleLabel, clock: clock)
        let started = ContinuousClock.now
        for host in 0..<4_000 {
            try jar.receive(setCookie: "s=1; Max-Age=3600", from: URL(string: "https://h\(host).example/")!)
            if host % 7 == 0 { _ = jar.headerValueForSending(to: URL(string: "https://h\(host / 2).example/")!) }
            clock.advance(by: .milliseconds(1))
        }
        print("4,000 hosts, one cookie each, limit 3,000: \(ContinuousClock.now - started)")
        #expect(jar.cookies.count == 3_000)
        let sizes = jar.queueSizes
        #expect(sizes.usage <= 2 * 3_000 + 64 && sizes.expiry <= 2 * 3_000 + 64)
        // The least recently used went: the first thousand hosts, except those read since.
        #expect(jar.cookies(for: URL(string: "https://h3999.example/")!).count == 1)
        #expect(jar.cookies(for: URL(string: "https://h1.example/")!).isEmpty)
    }

    @Test func expiredCookiesLeaveOnTheNextInsert() throws {
        let jar = CookieJar(publicSuffixes: .singleLabel, clock: clock)
        for host in 0..<500 {
            try jar.receive(setCookie: "s=1; Max-Age=10", from: URL(string: "https://h\(host).example/")!)
        }
        clock.advance(by: .seconds(11))
        try jar.receive(setCookie: "new=1", from: URL(string: "https://fresh.example/")!)
        #expect(jar.cookieCount == 1)
        #expect(jar.queueSizes.expiry == 0)
    }
}
