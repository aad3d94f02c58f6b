import Errand
import MetMuseum
import MuseumBrowser
import MuseumFeature
import Testing

@testable import TerminalUI

/// Every phase of the museum search store and the other museum screens, rendered at 80×24 and 120×40.
@Suite("met browse screens")
struct MuseumScreenTests {
    func frame(
        _ body: Frame.Body, heading: String = "Objects matching “sunflowers”", progress: String? = nil,
        query: String = "sunflowers", colors: ColorDepth = .trueColor
    ) -> Frame {
        Frame(
            title: "met browse", source: "The Met Collection", searchLabel: "Search the Met", query: query,
            searchFocused: false, heading: heading, progress: progress, body: body, tick: 5, colors: colors)
    }

    let objects = [
        Samples.object(7001, title: "Sunflowers in a Blue Jug"),
        Samples.object(7002, title: "Woman with Sunflowers", publicDomain: false),
        Samples.object(7003, title: "Field of Sunflowers near Auvers"),
    ]

    func results(_ phase: MuseumSearchStore.State, _ objects: [MetObject]) -> Frame.Body {
        MuseumScreens.results(
            phase: phase, objects: objects, query: "sunflowers", selection: 0, showsPictures: true,
            pictures: Samples.arrived)
    }

    @Test("departments: loading, failed, loaded with the filter marked")
    func departments() throws {
        let heading = "Departments · Enter picks the filter"
        try Snapshot.check(
            frame(MuseumScreens.departments(state: .loading, chosen: nil, selection: 0), heading: heading, query: ""),
            named: "museum-departments-loading")
        try Snapshot.check(
            frame(
                MuseumScreens.departments(
                    state: .failed("You seem to be offline. Check your connection and try again."),
                    chosen: nil, selection: 0), heading: heading, query: ""), named: "museum-departments-failed")
        try Snapshot.check(
            frame(
                MuseumScreens.departments(state: .loaded(Samples.departments), chosen: 11, selection: 2),
                heading: heading),
            named: "museum-departments-loaded")
    }

    @Test("the search store's phases: idle, searching, fetching part-way, finished, empty, failed")
    func phases() throws {
        try Snapshot.check(frame(results(.idle, []), query: ""), named: "museum-results-idle")
        try Snapshot.check(frame(results(.searching, [])), named: "museum-results-searching")
        let partWay = MuseumSearchStore.progressText(
            of: .fetching, progress: FanOutProgress(completed: 2, failed: 0, total: 10), skipped: 0, matches: 24)
        try Snapshot.check(
            frame(results(.fetching, Array(objects.prefix(2))), progress: partWay), named: "museum-results-fetching")
        let done = MuseumSearchStore.progressText(
            of: .finished, progress: FanOutProgress(completed: 5, failed: 2, total: 5), skipped: 2, matches: 24)
        try Snapshot.check(frame(results(.finished, objects), progress: done), named: "museum-results-finished")
        try Snapshot.check(frame(results(.finished, []), query: "zzzqqq"), named: "museum-results-empty")
        try Snapshot.check(
            frame(results(.failed("The museum's service is having trouble right now. Please try again later."), [])),
            named: "museum-results-failed")
        try Snapshot.check(
            frame(
                results(
                    .failed("You seem to be offline. Check your connection and try again."), Array(objects.prefix(1)))),
            named: "museum-results-failed-part-way")
    }

    @Test("an object with its picture, and one without a public-domain picture showing its page instead")
    func object() throws {
        try Snapshot.check(
            frame(MuseumScreens.object(objects[0], scroll: 0, pictures: Samples.arrived), heading: "Object"),
            named: "museum-object-picture")
        try Snapshot.check(
            frame(MuseumScreens.object(objects[1], scroll: 0, pictures: Samples.arrived), heading: "Object"),
            named: "museum-object-no-picture")
        try Snapshot.check(
            frame(MuseumScreens.object(objects[0], scroll: 0, pictures: Samples.loading), heading: "Object"),
            named: "museum-object-picture-loading")
    }

    @Test("progress wording")
    func progress() {
        #expect(
            MuseumSearchStore.progressText(
                of: .searching, progress: FanOutProgress(completed: 0, failed: 0, total: 0), skipped: 0,
                matches: 0) == nil)
        #expect(
            MuseumSearchStore.progressText(
                of: .fetching, progress: FanOutProgress(completed: 3, failed: 1, total: 20),
                skipped: 1, matches: 1) == "3 of 20 · 1 skipped · 1 match")
    }
}
