#if canImport(CCurl)
@testable import Errand
import Foundation
import TestSupport
import Testing

@Suite("Curl transport: handing responses to callers")
struct CurlHandoffTests {
    /// A response whose status tells deliveries apart.
    private static func response(_ status: Int) -> CurlResponse {
        CurlResponse(
            status: status, head: ResponseHead(), body: Data(), url: URL(string: "http://127.0.0.1/")!,
            total: .zero)
    }

    @Test("every outcome reaches its caller exactly once, whichever side comes first")
    func handoffRaces() async throws {
        // The delivering thread stands in for the loop. Rounds take turns among three ways of waiting: suspending at
        // once, watching long enough that the outcome must arrive during the watch, and watching for a random moment
        // before suspending. Random delays make the delivery land before, during and after each.
        for round in 0..<2_000 {
            let handoff = BufferedHandoff()
            let delay = Int.random(in: 0..<4_000)
            let fails = round % 7 == 0
            let thread = Thread {
                var spin = 0
                for _ in 0..<delay { spin &+= 1 }
                // What the loop does with a returned resumption: perform it (at the end of its pass).
                handoff.deliver(fails ? .failure(.cancelled) : .success(Self.response(200 + round % 100)))?.perform()
                _ = spin
            }
            thread.start()
            var outcome: Result<CurlResponse, ErrandError>?
            switch round % 3 {
            case 0:
                break
            case 1:
                outcome = handoff.watch(for: .seconds(10))
                #expect(outcome != nil, "round \(round): a ten-second watch missed an outcome delivered within microseconds")
            default:
                outcome = handoff.watch(for: .microseconds(Int.random(in: 0..<20)))
            }
            if outcome == nil {
                do {
                    outcome = .success(try await handoff.wait())
                } catch let error as ErrandError {
                    outcome = .failure(error)
                }
            }
            switch outcome {
            case .success(let response)?:
                #expect(!fails)
                #expect(response.status == 200 + round % 100)
            case .failure(let error)?:
                #expect(fails)
                guard case .cancelled = error else {
                    Issue.record("round \(round) failed with \(error), not the delivered .cancelled")
                    continue
                }
            case nil:
                Issue.record("round \(round) got no outcome")
            }
        }
    }

    @Test("a lone request to a quick server is handed over without suspending; a slow exchange ends that",
          .enabled(if: TestServer.nginxHTTP.isUsable && TestServer.httpbin.isUsable))
    func quickHandoffFollowsTheServer() async throws {
        let transport = CurlTest.transport()
        // A debug build takes a few hundred microseconds per loopback exchange; 20 ms counts that as quick while
        // the one-second exchange below still is not.
        transport.loop.quickExchange = .milliseconds(20)
        let small = try CurlTest.request(.nginxHTTP, "/small.json")
        for _ in 0..<20 {
            let response = try await transport.send(small)
            #expect(response.status == 200)
        }
        #expect(transport.loop.answersQuickly)
        let before = transport.loop.quickHandoffs.load(ordering: .relaxed)
        for _ in 0..<20 { _ = try await transport.send(small) }
        #expect(transport.loop.quickHandoffs.load(ordering: .relaxed) > before)

        // A one-second exchange makes waiting without sleeping pointless: callers suspend again.
        let slow = try await transport.send(try CurlTest.request(.httpbin, "/delay/1"))
        #expect(slow.status == 200)
        #expect(!transport.loop.answersQuickly)
        let afterSlow = transport.loop.quickHandoffs.load(ordering: .relaxed)
        let next = try await transport.send(small)
        #expect(next.status == 200)
        #expect(transport.loop.quickHandoffs.load(ordering: .relaxed) == afterSlow)
    }

    @Test("concurrent requests all complete when some callers watch and others suspend",
          .enabled(if: TestServer.nginxHTTP.isUsable))
    func mixedWaitingUnderConcurrency() async throws {
        let transport = CurlTest.transport()
        let small = try CurlTest.request(.nginxHTTP, "/small.json")
        // Alternate bursts of concurrency with lone requests, so both routes run against the same loop.
        for _ in 0..<10 {
            let statuses = try await withThrowingTaskGroup(of: Int.self) { group in
                for _ in 0..<8 { group.addTask { try await transport.send(small).status } }
                return try await group.reduce(into: [Int]()) { $0.append($1) }
            }
            #expect(statuses == Array(repeating: 200, count: 8))
            #expect(try await transport.send(small).status == 200)
        }
        #expect(transport.loop.inFlight.load(ordering: .relaxed) == 0)
    }
}
#endif
