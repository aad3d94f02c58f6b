/// An app a ``BrowserLoop`` runs: its pages, the frame each shows, and what keys on them do. The apps implement it
/// on their feature modules' view models; everything about the terminal stays in the loop.
@MainActor
public protocol BrowserApp: AnyObject {
    /// What a page is (the root list, a list of results, one item).
    associatedtype Page: Hashable & Sendable

    /// The first page.
    var rootPage: Page { get }
    /// Whether typing in the search field searches at once, or Enter sends the query.
    var searchesAsYouType: Bool { get }

    /// Starts the first page's loads.
    func start()
    /// The frame for the navigation's state (the page on top, its selection and scroll, the search field).
    func frame(for navigation: Navigation<Page>, colors: ColorDepth, tick: Int) -> Frame
    /// How many rows a page lists; `nil` for a text page.
    func rows(of page: Page) -> Int?
    /// Opens a page's row; returns the page to show above it, if any.
    func open(_ page: Page, row: Int) -> Page?
    /// Searches for a text (typed or sent); returns the page to show above the root (`nil`: the root itself).
    func search(_ text: String) -> Page?
    /// Loads a page again after a failure.
    func retry(_ page: Page)
}
