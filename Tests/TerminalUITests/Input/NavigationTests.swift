import Testing

@testable import TerminalUI

@Suite("Navigation (the key state machine)")
struct NavigationTests {
    enum Page: Hashable, Sendable {
        case root, list
        case item(Int)
    }

    let list = Navigation<Page>.Context(rows: 5, visible: 3, searchesAsYouType: true)
    let text = Navigation<Page>.Context(rows: nil, visible: 10, searchesAsYouType: true)

    @Test("arrows, j/k, the wheel, paging, Home and End move the selection within the list")
    func moving() {
        var navigation = Navigation<Page>(root: .root)
        for key in [Key.down, .character("j"), .wheelDown] { #expect(navigation.handle(key, context: list) == .none) }
        #expect(navigation.top.selection == 3)
        _ = navigation.handle(.pageDown, context: list)
        #expect(navigation.top.selection == 4, "stops at the last row")
        _ = navigation.handle(.up, context: list)
        _ = navigation.handle(.character("k"), context: list)
        _ = navigation.handle(.wheelUp, context: list)
        #expect(navigation.top.selection == 1)
        _ = navigation.handle(.end, context: list)
        #expect(navigation.top.selection == 4)
        _ = navigation.handle(.home, context: list)
        _ = navigation.handle(.up, context: list)
        #expect(navigation.top.selection == 0, "stops at the first row")
    }

    @Test("Enter opens the selected row; Esc, Backspace and h go back to the page below, which keeps its selection")
    func openAndBack() {
        var navigation = Navigation<Page>(root: .root)
        _ = navigation.handle(.down, context: list)
        #expect(navigation.handle(.enter, context: list) == .open(.root, row: 1))
        navigation.push(.list)
        #expect(navigation.top.selection == 0)
        #expect(navigation.handle(.enter, context: list) == .open(.list, row: 0))
        navigation.push(.item(0))
        #expect(navigation.handle(.escape, context: text) == .back(to: .list))
        #expect(navigation.handle(.backspace, context: list) == .back(to: .root))
        #expect(navigation.top.selection == 1)
        #expect(navigation.handle(.escape, context: list) == .none, "nothing below the root")
        let empty = Navigation<Page>.Context(rows: 0, visible: 3, searchesAsYouType: true)
        #expect(navigation.handle(.enter, context: empty) == .none, "an empty list opens nothing")
        _ = navigation.handle(.character("h"), context: list)
        #expect(navigation.stack.count == 1)
    }

    @Test("/ focuses the search field; typing searches as you type, or Enter submits; Esc leaves the field")
    func searching() {
        var navigation = Navigation<Page>(root: .root)
        #expect(navigation.handle(.character("/"), context: list) == .none)
        #expect(navigation.focus == .search)
        #expect(navigation.handle(.character("p"), context: list) == .queryChanged("p"))
        #expect(navigation.handle(.character("q"), context: list) == .queryChanged("pq"), "q is text in the field")
        #expect(navigation.handle(.backspace, context: list) == .queryChanged("p"))
        #expect(navigation.handle(.character("r"), context: list) == .queryChanged("pr"))
        #expect(navigation.handle(.enter, context: list) == .none)
        #expect(navigation.focus == .page)
        let submitting = Navigation<Page>.Context(rows: 5, visible: 3, searchesAsYouType: false)
        _ = navigation.handle(.character("/"), context: submitting)
        #expect(navigation.handle(.character("s"), context: submitting) == .none)
        #expect(navigation.handle(.enter, context: submitting) == .submit("prs"))
        _ = navigation.handle(.character("/"), context: list)
        #expect(navigation.handle(.escape, context: list) == .none)
        #expect(navigation.focus == .page)
        #expect(navigation.query == "prs")
    }

    @Test("a new search's page replaces every page above the root")
    func show() {
        var navigation = Navigation<Page>(root: .root)
        navigation.push(.list)
        navigation.push(.item(3))
        navigation.show(.list)
        #expect(navigation.stack.map(\.page) == [.root, .list])
        navigation.show(nil)
        #expect(navigation.stack.map(\.page) == [.root])
    }

    @Test("r retries the page on top; q and Ctrl-C quit; Ctrl-C quits from the search field too")
    func retryAndQuit() {
        var navigation = Navigation<Page>(root: .root)
        navigation.push(.list)
        #expect(navigation.handle(.character("r"), context: list) == .retry(.list))
        #expect(navigation.handle(.character("q"), context: list) == .quit)
        _ = navigation.handle(.character("/"), context: list)
        #expect(navigation.handle(.interrupt, context: list) == .quit)
    }

    @Test("? shows the help; the next key closes it and does nothing else, except q")
    func help() {
        var navigation = Navigation<Page>(root: .root)
        _ = navigation.handle(.character("?"), context: list)
        #expect(navigation.showsHelp)
        #expect(navigation.handle(.down, context: list) == .none)
        #expect(!navigation.showsHelp)
        #expect(navigation.top.selection == 0)
        _ = navigation.handle(.character("?"), context: list)
        #expect(navigation.handle(.character("q"), context: list) == .quit)
    }

    @Test("a text page scrolls; the renderer's limit stops it; a shrunk list keeps the selection inside it")
    func scrollingAndClamping() {
        var navigation = Navigation<Page>(root: .root)
        navigation.push(.item(1))
        _ = navigation.handle(.pageDown, context: text)
        _ = navigation.handle(.down, context: text)
        #expect(navigation.top.scroll == 10)
        navigation.limitScroll(to: 4)
        #expect(navigation.top.scroll == 4)
        _ = navigation.handle(.home, context: text)
        #expect(navigation.top.scroll == 0)
        var lists = Navigation<Page>(root: .root)
        _ = lists.handle(.end, context: list)
        lists.clamp(rows: 2)
        #expect(lists.top.selection == 1)
    }
}
