import Foundation
import MetMuseum
import MuseumFeature
import TerminalUI

/// `met browse`: the museum app's screens in a terminal, driven by the museum app's view models — the departments
/// to filter by, the search store (objects in search order as they arrive, progress, skipped count, a new search
/// cancelling the running one) and an object's screen.
@MainActor
public final class MuseumBrowser: BrowserApp {
    /// The start page.
    public let rootPage = MuseumPage.departments
    /// Enter sends the query: each search starts a bulk fetch.
    public let searchesAsYouType = false

    private let departments: DepartmentsModel
    private let store: MuseumSearchStore
    private var department: Int?
    private var lastText = ""
    private var running: Task<Void, Never>?
    private let pictures: PictureStore

    /// A browser on a client; `limit` objects per search; pictures come through `pictureData` (the tool's data
    /// pipeline and cache).
    public init(
        client: MetClient, limit: Int = 20, rate: Double? = nil,
        pictureData: @escaping @Sendable (URL) async throws -> Data, redraw: @escaping @Sendable () -> Void
    ) {
        departments = DepartmentsModel(client: client)
        store = MuseumSearchStore(client: client, limit: limit, rate: rate)
        pictures = PictureStore(fetch: pictureData, changed: { redraw() })
    }

    /// Loads the departments.
    public func start() {
        let departments = departments
        Task { await departments.load() }
    }

    /// The frame for the page on top.
    public func frame(for navigation: Navigation<MuseumPage>, colors: ColorDepth, tick: Int) -> Frame {
        let entry = navigation.top
        let showsPictures = colors != .none && PictureDecoder.isAvailable
        let lookup: MuseumScreens.Pictures = { [pictures] in pictures.slot(for: $0) }
        let body: Frame.Body
        var heading: String
        var progress: String?
        switch entry.page {
        case .departments:
            body = MuseumScreens.departments(state: departments.state, chosen: department, selection: entry.selection)
            heading = "Departments · Enter picks the filter"
        case .results:
            body = MuseumScreens.results(
                phase: store.state, objects: store.objects, query: store.query?.text ?? lastText,
                selection: entry.selection, showsPictures: showsPictures, pictures: lookup)
            heading = "Objects matching “\(store.query?.text ?? lastText)”"
            if let name = departmentName { heading += " in \(name)" }
            progress = MuseumSearchStore.progressText(
                of: store.state, progress: store.progress, skipped: store.skippedCount, matches: store.matches)
        case .object(let object):
            body = MuseumScreens.object(object, scroll: entry.scroll, pictures: lookup)
            heading = "Object"
        }
        return Frame(
            title: "met browse", source: "The Met Collection", searchLabel: "Search the Met",
            query: navigation.query, searchFocused: navigation.focus == .search, heading: heading, progress: progress,
            body: body, showsHelp: navigation.showsHelp, tick: tick, colors: colors)
    }

    /// How many rows a page lists.
    public func rows(of page: MuseumPage) -> Int? {
        switch page {
        case .departments: return departments.state.value.map { $0.count + 1 } ?? 0
        case .results: return store.objects.count
        case .object: return nil
        }
    }

    /// Picks a department as the filter (searching again when a search is shown), or opens an object.
    public func open(_ page: MuseumPage, row: Int) -> MuseumPage? {
        switch page {
        case .departments:
            guard let list = departments.state.value else { return nil }
            department = row == 0 || row > list.count ? nil : list[row - 1].id
            guard !lastText.isEmpty else { return nil }
            startSearch()
            return .results
        case .results:
            let objects = store.objects
            guard objects.indices.contains(row) else { return nil }
            return .object(objects[row])
        case .object:
            return nil
        }
    }

    /// Starts a search, cancelling the running one (the store drops whatever the older search still brings).
    public func search(_ text: String) -> MuseumPage? {
        let trimmed = text.trimmingCharacters(in: .whitespaces)
        guard !trimmed.isEmpty else { return nil }
        lastText = trimmed
        startSearch()
        return .results
    }

    /// Loads a page again.
    public func retry(_ page: MuseumPage) {
        pictures.forgetFailures()
        switch page {
        case .departments:
            let departments = departments
            Task { await departments.retry() }
        case .results:
            if case .failed = store.state { startSearch() }
        case .object:
            break
        }
    }

    private var departmentName: String? {
        guard let department else { return nil }
        return departments.state.value?.first { $0.id == department }?.displayName
    }

    private func startSearch() {
        var query = SearchQuery(lastText)
        query.departmentID = department
        let store = store
        running = Task { await store.search(query) }
    }
}
