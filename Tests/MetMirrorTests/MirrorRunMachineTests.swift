import Testing

@testable import MetMirror

@Suite("Mirror run state machine")
struct MirrorRunMachineTests {
    @Test("an empty mirror lists in full, fetches while objects are pending, then completes")
    func fullRun() {
        var machine = MirrorRunMachine(phase: .empty)
        #expect(machine.start(update: false, failedWaiting: 0) == .list(.full))
        #expect(machine.phase == .empty, "nothing is committed before the listing")
        #expect(machine.listed(pending: 250) == .fetchBatch)
        #expect(machine.phase == .fetching(.full))
        #expect(machine.batchStored(pending: 150) == .fetchBatch)
        #expect(machine.batchStored(pending: 0) == .complete(.full))
        #expect(machine.phase == .complete)
    }

    @Test("an update on an empty mirror is a full run")
    func updateOfEmpty() {
        var machine = MirrorRunMachine(phase: .empty)
        #expect(machine.start(update: true, failedWaiting: 0) == .list(.full))
    }

    @Test("an interrupted run resumes fetching without listing again, whatever was asked")
    func resume() {
        for update in [false, true] {
            var machine = MirrorRunMachine(phase: .fetching(.update))
            #expect(machine.start(update: update, failedWaiting: 0) == .fetchBatch)
            #expect(machine.batchStored(pending: 0) == .complete(.update))
        }
    }

    @Test("a complete mirror: nothing to do, an update lists changes, failed objects are retried")
    func complete() {
        var idle = MirrorRunMachine(phase: .complete)
        #expect(idle.start(update: false, failedWaiting: 0) == .reportComplete)
        var update = MirrorRunMachine(phase: .complete)
        #expect(update.start(update: true, failedWaiting: 3) == .list(.update))
        #expect(update.phase == .complete, "a killed update listing leaves the mirror complete")
        #expect(update.listed(pending: 0) == .complete(.update))
        var retry = MirrorRunMachine(phase: .complete)
        #expect(retry.start(update: false, failedWaiting: 3) == .fetchBatch)
        #expect(retry.phase == .fetching(.full))
    }

    @Test("a failure keeps the committed phase")
    func failure() {
        var listing = MirrorRunMachine(phase: .empty)
        _ = listing.start(update: false, failedWaiting: 0)
        #expect(listing.failed() == .stop)
        #expect(listing.phase == .empty)
        var fetching = MirrorRunMachine(phase: .empty)
        _ = fetching.start(update: false, failedWaiting: 0)
        _ = fetching.listed(pending: 10)
        #expect(fetching.failed() == .stop)
        #expect(fetching.phase == .fetching(.full))
        #expect(fetching.state == .stopped(.fetching(.full)))
    }
}
