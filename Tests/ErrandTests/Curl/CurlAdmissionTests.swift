#if canImport(CCurl)
@testable import Errand
import Testing

/// Connection slots per host and the queues in front of them, without a socket.
@Suite("Curl transport: admission to the multi handle")
struct CurlAdmissionTests {
    /// Something that waits, told apart by identity.
    final class Ticket {
        let number: Int
        init(_ number: Int) { self.number = number }
    }

    @Test("a host admits as many as it has slots; the rest wait and enter first come, first served")
    func fifoPerHost() {
        var admission = CurlAdmission<Ticket>(perHost: 2)
        let tickets = (0..<6).map(Ticket.init)
        let admitted = tickets.map { admission.request($0, host: "http://a:80") }
        #expect(admitted == [true, true, false, false, false, false])
        #expect(admission.activeCount == 2)
        #expect(admission.waitingCount == 4)
        var order: [Int] = []
        for _ in 0..<4 {
            if let next = admission.release(host: "http://a:80") { order.append(next.number) }
        }
        #expect(order == [2, 3, 4, 5])
        #expect(admission.activeCount == 2)
        #expect(admission.waitingCount == 0)
        let outcome1 = admission.release(host: "http://a:80")
        #expect(outcome1 == nil)
        let outcome2 = admission.release(host: "http://a:80")
        #expect(outcome2 == nil)
        #expect(admission.activeCount == 0)
        // Nothing is held: releasing again changes nothing, and a newcomer enters at once.
        let outcome3 = admission.release(host: "http://a:80")
        #expect(outcome3 == nil)
        let outcome4 = admission.request(Ticket(9), host: "http://a:80")
        #expect(outcome4)
    }

    @Test("hosts do not share slots")
    func hostsAreSeparate() {
        var admission = CurlAdmission<Ticket>(perHost: 1)
        let outcome5 = admission.request(Ticket(0), host: "http://a:80")
        #expect(outcome5)
        let outcome6 = admission.request(Ticket(1), host: "http://a:80")
        #expect(!outcome6)
        let outcome7 = admission.request(Ticket(2), host: "http://b:80")
        #expect(outcome7)
        let outcome8 = admission.request(Ticket(3), host: "https://a:443")
        #expect(outcome8)
        let outcome9 = admission.release(host: "http://b:80")
        #expect(outcome9 == nil)
        let outcome10 = admission.release(host: "http://a:80")
        #expect(outcome10?.number == 1)
    }

    @Test("a withdrawn ticket leaves its queue at once and is never admitted")
    func withdrawal() {
        var admission = CurlAdmission<Ticket>(perHost: 1)
        let tickets = (0..<4).map(Ticket.init)
        for ticket in tickets { _ = admission.request(ticket, host: "h") }
        let outcome11 = admission.withdraw(tickets[2], host: "h")
        #expect(outcome11)
        let outcome12 = admission.withdraw(tickets[2], host: "h")
        #expect(!outcome12)
        let outcome13 = admission.withdraw(tickets[0], host: "h")
        #expect(!outcome13, "the admitted ticket is not waiting")
        let outcome14 = admission.withdraw(tickets[1], host: "other")
        #expect(!outcome14)
        #expect(admission.waitingCount == 2)
        let outcome15 = admission.release(host: "h")
        #expect(outcome15?.number == 1)
        let outcome16 = admission.release(host: "h")
        #expect(outcome16?.number == 3)
        let outcome17 = admission.release(host: "h")
        #expect(outcome17 == nil)
    }

    @Test("a host that multiplexes admits its waiters as streams, and stops when it no longer does")
    func multiplexing() {
        var admission = CurlAdmission<Ticket>(perHost: 2)
        let tickets = (0..<300).map(Ticket.init)
        for ticket in tickets { _ = admission.request(ticket, host: "https://a:443") }
        #expect(admission.activeCount == 2)
        let admitted = admission.noteMultiplexing(true, host: "https://a:443")
        #expect(admitted.map(\.number) == Array(2..<200))
        #expect(admission.activeCount == 2 * streamsPerConnection)
        let outcome18 = admission.noteMultiplexing(true, host: "https://a:443")
        #expect(outcome18.isEmpty)
        let outcome19 = admission.release(host: "https://a:443")
        #expect(outcome19?.number == 200)
        // Back to one transfer per connection: releases admit nobody until fewer than two hold a slot.
        let outcome20 = admission.noteMultiplexing(false, host: "https://a:443")
        #expect(outcome20.isEmpty)
        let outcome21 = admission.release(host: "https://a:443")
        #expect(outcome21 == nil)
        let outcome22 = admission.noteMultiplexing(true, host: "unknown")
        #expect(outcome22.isEmpty)
    }

    @Test("a long queue drains in order through many releases")
    func longQueue() {
        var admission = CurlAdmission<Ticket>(perHost: 8)
        let tickets = (0..<1000).map(Ticket.init)
        for ticket in tickets { _ = admission.request(ticket, host: "h") }
        var order: [Int] = []
        while let next = admission.release(host: "h") { order.append(next.number) }
        #expect(order == Array(8..<1000))
        #expect(admission.waitingCount == 0)
        #expect(admission.activeCount == 7)
    }
}
#endif
