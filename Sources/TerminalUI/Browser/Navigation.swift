/// The key handling of both browsers as a state machine: which page is open (a stack, the root first), which row
/// of it is selected, where a text page is scrolled, whether the search field has the focus, and the help overlay.
///
/// ``handle(_:context:)`` takes a key and the facts of the page on screen and returns the action for the app to
/// carry out; the state changes it implies (moving the selection, opening the search field, going back) are made
/// here, so they are tested without a terminal.
public struct Navigation<Page: Hashable & Sendable>: Hashable, Sendable {
    /// One open page and where it stands.
    public struct Entry: Hashable, Sendable {
        /// The page.
        public var page: Page
        /// The selected row of a list.
        public var selection = 0
        /// The first line shown of a text page.
        public var scroll = 0
    }

    /// Where the keys go.
    public enum Focus: Hashable, Sendable {
        /// The search field: characters edit the query.
        case search
        /// The page: keys move and open.
        case page
    }

    /// What the page on screen is, for the keys that depend on it.
    public struct Context: Hashable, Sendable {
        /// How many rows a list page has; `nil` for a text page.
        public var rows: Int?
        /// How many rows (or lines) fit on screen, for Page Up and Page Down.
        public var visible: Int
        /// Whether typing searches at once (`mealdb`) or Enter sends the query (`met`).
        public var searchesAsYouType: Bool

        /// Creates a context.
        public init(rows: Int?, visible: Int, searchesAsYouType: Bool) {
            self.rows = rows
            self.visible = visible
            self.searchesAsYouType = searchesAsYouType
        }
    }

    /// What the app must do after a key.
    public enum Action: Hashable, Sendable {
        /// Nothing beyond drawing the new state.
        case none
        /// The search text changed (searches as you type).
        case queryChanged(String)
        /// Enter in the search field: search for this text.
        case submit(String)
        /// Enter on a row: open what it shows.
        case open(Page, row: Int)
        /// Escape: the page on top was closed; this page is on screen again.
        case back(to: Page)
        /// `r`: load the page on screen again.
        case retry(Page)
        /// `q` or Ctrl-C.
        case quit
    }

    /// The open pages, the root first.
    public private(set) var stack: [Entry]
    /// Where the keys go.
    public var focus: Focus = .page
    /// The text in the search field.
    public private(set) var query = ""
    /// Whether the key help is shown over the page.
    public private(set) var showsHelp = false

    /// Starts on a root page.
    public init(root: Page) {
        stack = [Entry(page: root)]
    }

    /// The page on screen.
    public var top: Entry { stack[stack.count - 1] }

    /// Opens a page above the current one.
    public mutating func push(_ page: Page) {
        stack.append(Entry(page: page))
    }

    /// Replaces every page above the root with `page` (a new search's results), or shows the root for `nil`.
    public mutating func show(_ page: Page?) {
        stack.removeSubrange(1...)
        if let page { stack.append(Entry(page: page)) }
    }

    /// Keeps the selection inside a list that changed length.
    public mutating func clamp(rows: Int) {
        stack[stack.count - 1].selection = max(0, min(top.selection, rows - 1))
    }

    /// Carries out a key; returns what the app must do.
    public mutating func handle(_ key: Key, context: Context) -> Action {
        if key == .interrupt { return .quit }
        if showsHelp {
            showsHelp = false
            return key == .character("q") ? .quit : .none
        }
        switch focus {
        case .search: return searchKey(key, context: context)
        case .page: return pageKey(key, context: context)
        }
    }

    private mutating func searchKey(_ key: Key, context: Context) -> Action {
        switch key {
        case .character(let character):
            query.append(character)
            return context.searchesAsYouType ? .queryChanged(query) : .none
        case .backspace:
            guard !query.isEmpty else { return .none }
            query.removeLast()
            return context.searchesAsYouType ? .queryChanged(query) : .none
        case .enter:
            focus = .page
            return context.searchesAsYouType ? .none : .submit(query)
        case .escape, .down, .tab:
            focus = .page
            return .none
        default:
            return .none
        }
    }

    private mutating func pageKey(_ key: Key, context: Context) -> Action {
        switch key {
        case .character("q"): return .quit
        case .character("?"):
            showsHelp = true
            return .none
        case .character("/"):
            focus = .search
            return .none
        case .character("r"): return .retry(top.page)
        case .escape, .backspace, .left, .character("h"):
            guard stack.count > 1 else { return .none }
            stack.removeLast()
            return .back(to: top.page)
        case .enter, .right, .character("l"):
            guard let rows = context.rows, rows > 0 else { return .none }
            return .open(top.page, row: min(top.selection, rows - 1))
        case .down, .character("j"), .wheelDown: move(by: 1, context: context)
        case .up, .character("k"), .wheelUp: move(by: -1, context: context)
        case .pageDown, .character(" "): move(by: max(1, context.visible - 1), context: context)
        case .pageUp: move(by: -max(1, context.visible - 1), context: context)
        case .home, .character("g"): move(by: -Int.max / 2, context: context)
        case .end, .character("G"): move(by: Int.max / 2, context: context)
        default: break
        }
        return .none
    }

    private mutating func move(by delta: Int, context: Context) {
        let index = stack.count - 1
        if let rows = context.rows {
            stack[index].selection = max(0, min(rows - 1, stack[index].selection + delta))
        } else {
            // A text page scrolls; the renderer stops it at the last screenful.
            stack[index].scroll = max(0, stack[index].scroll + delta)
        }
    }

    /// Stops a text page's scrolling at its end (the renderer knows the page's length).
    public mutating func limitScroll(to maximum: Int) {
        stack[stack.count - 1].scroll = max(0, min(top.scroll, maximum))
    }
}
