import Testing

@testable import Errand

@Suite("HAR write machine")
struct HARWriteMachineTests {
    @Test("the first entry starts a write; entries during it cost one more write, however many")
    func coalesces() {
        var machine = HARWriteMachine()
        #expect(machine.isSettled)
        #expect(machine.entryAdded() == .write)
        #expect(!machine.isSettled)
        #expect(machine.entryAdded() == .none)
        #expect(machine.entryAdded() == .none)
        #expect(machine.state == .writingWithMore)
        #expect(machine.writeEnded() == .write)
        #expect(machine.state == .writing)
        #expect(machine.writeEnded() == .settle)
        #expect(machine.isSettled)
    }

    @Test("a write that ends with nothing new settles; a stray end changes nothing")
    func settles() {
        var machine = HARWriteMachine()
        #expect(machine.writeEnded() == .settle)
        #expect(machine.isSettled)
        #expect(machine.entryAdded() == .write)
        #expect(machine.writeEnded() == .settle)
        #expect(machine.entryAdded() == .write, "after settling, the next entry writes again")
    }
}
