import Errand
import FeatureState
import Foundation
import MetMuseum

/// The sentences of the museum screens, from the module's string tables in ``/Errand/Localization/language``.
public enum MuseumText {
    /// The sentence for `key` in `language`, with each `{name}` filled from `values`.
    static func text(_ key: String, _ values: [String: String] = [:], language: String = Localization.language)
        -> String
    {
        Localization.sentence(key, in: .module, language: language, values: values)
    }

    /// The label of the button that tries a failed search again.
    public static var tryAgain: String { text("screen.tryAgain") }
    /// The search field's prompt.
    public static var searchPrompt: String { text("screen.searchPrompt") }
    /// The label of the filter that keeps every department.
    public static var allDepartments: String { text("screen.allDepartments") }
    /// The label of the link to an object's page on the museum's site.
    public static var openPage: String { text("screen.openPage") }
}

extension MuseumSearchStore {
    /// What the results show in place of rows, or above them while objects arrive: the search under way, nothing
    /// found, the failure, or (before any search) what to do; `nil` when the objects speak for themselves.
    public var status: ScreenStatus? { Self.status(of: state, objectCount: objects.count, query: query?.text ?? "") }

    /// The status of a search for `query` in `state` with `objectCount` objects arrived.
    nonisolated public static func status(of state: State, objectCount: Int, query: String) -> ScreenStatus? {
        switch state {
        case .idle: return objectCount == 0 ? .hint(MuseumText.text("screen.search.hint")) : nil
        case .searching: return .loading(MuseumText.text("screen.search.searching", ["query": query]))
        case .fetching: return .loading(MuseumText.text("screen.search.fetching"))
        case .finished:
            return objectCount == 0 ? .empty(MuseumText.text("screen.search.empty", ["query": query])) : nil
        case .failed(let message): return .failed(message)
        }
    }

    /// How far the search has come, as `12 of 20 · 2 skipped · 345 matches`; `nil` before the IDs are known.
    public var progressText: String? {
        Self.progressText(of: state, progress: progress, skipped: skippedCount, matches: matches)
    }

    /// The progress line of a search in `state`.
    nonisolated public static func progressText(of state: State, progress: FanOutProgress, skipped: Int, matches: Int)
        -> String?
    {
        switch state {
        case .idle, .searching, .failed: return nil
        case .fetching, .finished:
            var parts = [
                MuseumText.text(
                    "screen.progress.done", ["done": "\(progress.completed)", "total": "\(progress.total)"])
            ]
            if skipped > 0 { parts.append(MuseumText.text("screen.progress.skipped", ["count": "\(skipped)"])) }
            parts.append(
                MuseumText.text(
                    matches == 1 ? "screen.progress.match.one" : "screen.progress.match.other",
                    ["count": "\(matches)"]))
            return parts.joined(separator: " · ")
        }
    }

    /// The notice under finished results when objects were skipped, as `2 objects could not be shown: the museum
    /// does not serve them.`; `nil` when none were.
    public var skippedNotice: String? {
        guard state == .finished, skippedCount > 0 else { return nil }
        let key = skippedCount == 1 ? "screen.skipped.one" : "screen.skipped.other"
        return MuseumText.text(key, ["count": "\(skippedCount)"])
    }
}

extension MetObject {
    /// The object's name on screen: its title, or `Untitled`.
    public var displayTitle: String { title ?? MuseumText.text("screen.untitled") }

    /// The line under an object's title: who made it (or its culture), when, and its department.
    public var summaryLine: String {
        [artistDisplayName ?? culture, objectDate, department].compactMap { $0 }.joined(separator: " · ")
    }

    /// The picture an object's screen shows: the small primary image, else the full one; `nil` when the museum
    /// shows none (an object that is not in the public domain), and the screen links to ``objectURL`` instead.
    public var detailPicture: URL? { primaryImageSmall ?? primaryImage }

    /// Where a row of an object without a picture leads: its page on the museum's site, as the museum shows it
    /// there; `nil` when the app shows the object itself.
    public var externalPage: URL? { detailPicture == nil ? objectURL : nil }

    /// The sentence an object without a picture shows, with its page's address.
    public var pageNote: String? {
        guard detailPicture == nil else { return nil }
        return MuseumText.text(
            "screen.pageNote", ["url": objectURL?.absoluteString ?? MuseumText.text("screen.pageNote.none")])
    }
}

extension ObjectDetailModel {
    /// What the object's screen shows in place of the object: loading or failed; `nil` once it is there.
    public var status: ScreenStatus? {
        let loading = MuseumText.text("screen.object.loading")
        return state.status(loading: loading, empty: loading) { _ in false }
    }
}

extension DepartmentsModel {
    /// What the departments list shows in place of its rows; `nil` once departments are there.
    public var status: ScreenStatus? {
        let loading = MuseumText.text("screen.departments.loading")
        return state.status(loading: loading, empty: loading)
    }
}

/// An object's picture, loaded through a data pipeline (its failures worded as the museum screens word them).
public typealias ObjectPicture = PictureModel<MuseumFailure>
