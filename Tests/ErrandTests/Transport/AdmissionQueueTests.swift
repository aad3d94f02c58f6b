@testable import Errand
import Testing

/// Connection slots per server and the queues in front of them, without a socket (both transports admit through them).
@Suite("Transports: admission queues per server")
struct AdmissionQueueTests {
    /// Something that waits, told apart by identity.
    final class Ticket {
        let number: Int
        init(_ number: Int) { self.number = number }
    }

    @Test("a host admits as many as it has slots; the rest wait and enter first come, first served")
    func fifoPerHost() {
        var admission = AdmissionQueue<String, Ticket>(perServer: 2)
        let tickets = (0..<6).map(Ticket.init)
        let admitted = tickets.map { admission.request($0, at: "http://a:80") }
        #expect(admitted == [true, true, false, false, false, false])
        #expect(admission.activeCount == 2)
        #expect(admission.waitingCount == 4)
        var order: [Int] = []
        for _ in 0..<4 {
            if let next = admission.release(at: "http://a:80") { order.append(next.number) }
        }
        #expect(order == [2, 3, 4, 5])
        #expect(admission.activeCount == 2)
        #expect(admission.waitingCount == 0)
        let outcome1 = admission.release(at: "http://a:80")
        #expect(outcome1 == nil)
        let outcome2 = admission.release(at: "http://a:80")
        #expect(outcome2 == nil)
        #expect(admission.activeCount == 0)
        // Nothing is held: releasing again changes nothing, and a newcomer enters at once.
        let outcome3 = admission.release(at: "http://a:80")
        #expect(outcome3 == nil)
        let outcome4 = admission.request(Ticket(9), at: "http://a:80")
        #expect(outcome4)
    }

    @Test("hosts do not share slots")
    func hostsAreSeparate() {
        var admission = AdmissionQueue<String, Ticket>(perServer: 1)
        let outcome5 = admission.request(Ticket(0), at: "http://a:80")
        #expect(outcome5)
        let outcome6 = admission.request(Ticket(1), at: "http://a:80")
        #expect(!outcome6)
        let outcome7 = admission.request(Ticket(2), at: "http://b:80")
        #expect(outcome7)
        let outcome8 = admission.request(Ticket(3), at: "https://a:443")
        #expect(outcome8)
        let outcome9 = admission.release(at: "http://b:80")
        #expect(outcome9 == nil)
        let outcome10 = admission.release(at: "http://a:80")
        #expect(outcome10?.number == 1)
    }

    @Test("a withdrawn ticket leaves its queue at once and is never admitted")
    func withdrawal() {
        var admission = AdmissionQueue<String, Ticket>(perServer: 1)
        let tickets = (0..<4).map(Ticket.init)
        for ticket in tickets { _ = admission.request(ticket, at: "h") }
        let outcome11 = admission.withdraw(tickets[2], at: "h")
        #expect(outcome11)
        let outcome12 = admission.withdraw(tickets[2], at: "h")
        #expect(!outcome12)
        let outcome13 = admission.withdraw(tickets[0], at: "h")
        #expect(!outcome13, "the admitted ticket is not waiting")
        let outcome14 = admission.withdraw(tickets[1], at: "other")
        #expect(!outcome14)
        #expect(admission.waitingCount == 2)
        let outcome15 = admission.release(at: "h")
        #expect(outcome15?.number == 1)
        let outcome16 = admission.release(at: "h")
        #expect(outcome16?.number == 3)
        let outcome17 = admission.release(at: "h")
        #expect(outcome17 == nil)
    }

    @Test("a host that multiplexes admits its waiters as streams, and stops when it no longer does")
    func multiplexing() {
        var admission = AdmissionQueue<String, Ticket>(perServer: 2)
        let tickets = (0..<300).map(Ticket.init)
        for ticket in tickets { _ = admission.request(ticket, at: "https://a:443") }
        #expect(admission.activeCount == 2)
        let admitted = admission.noteMultiplexing(true, at: "https://a:443")
        #expect(admitted.map(\.number) == Array(2..<200))
        #expect(admission.activeCount == 2 * streamsPerConnection)
        let outcome18 = admission.noteMultiplexing(true, at: "https://a:443")
        #expect(outcome18.isEmpty)
        let outcome19 = admission.release(at: "https://a:443")
        #expect(outcome19?.number == 200)
        // Back to one transfer per connection: releases admit nobody until fewer than two hold a slot.
        let outcome20 = admission.noteMultiplexing(false, at: "https://a:443")
        #expect(outcome20.isEmpty)
        let outcome21 = admission.release(at: "https://a:443")
        #expect(outcome21 == nil)
        let outcome22 = admission.noteMultiplexing(true, at: "unknown")
        #expect(outcome22.isEmpty)
    }

    @Test("a long queue drains in order through many releases")
    func longQueue() {
        var admission = AdmissionQueue<String, Ticket>(perServer: 8)
        let tickets = (0..<1000).map(Ticket.init)
        for ticket in tickets { _ = admission.request(ticket, at: "h") }
        var order: [Int] = []
        while let next = admission.release(at: "h") { order.append(next.number) }
        #expect(order == Array(8..<1000))
        #expect(admission.waitingCount == 0)
        #expect(admission.activeCount == 7)
    }
}
