import CommandLine
import Errand
import Foundation
import MetMuseum
import MuseumFeature

/// One run of `met`: the client built from the options, and the command carried out by the museum app's view model
/// for it, whose states ``MetOutput`` renders (the search's progress while it fetches).
@MainActor
struct MetSession {
    let invocation: Invocation
    let console: Console
    let client: MetClient
    let setup: ClientSetup
    let output: MetOutput
    let environment: [String: String]

    init(context: CommandContext) throws {
        invocation = context.invocation
        console = context.console
        setup = try ClientSetup(
            context: context, baseURLVariable: "MET_BASE_URL", defaultBaseURL: MetClient.defaultBaseURL,
            cacheName: "met")
        client = try Self.client(context: context, setup: setup, console: console)
        output = MetOutput(console: console, json: context.wantsJSON)
        environment = context.environment
    }

    /// Carries out the command, and then waits for the recording (`--record`) to hold every exchange.
    func run() async throws {
        do {
            try await perform()
        } catch {
            await setup.finishRecording(console: console)
            throw error
        }
        await setup.finishRecording(console: console)
    }

    private func perform() async throws {
        switch invocation.command?.name {
        case "search":
            try await search()
        case "show":
            let id = try invocation.integerArgument("ID", in: 1...Int.max)
            output.object(try await ObjectDetailModel(objectID: id, client: client).loadedValue())
        case "mirror":
            try await MirrorCommand(invocation: invocation, console: console, setup: setup, json: output.json).run()
        case "departments":
            output.departments(try await DepartmentsModel(client: client).loadedValue())
        case "objects":
            let since = try invocation.value("since").map(Self.day)
            let departments = try invocation.integers("department", in: 1...Int.max)
            let listing = ObjectIDsModel.Listing.objects(updatedSince: since, departmentIDs: departments)
            output.objectIDs(try await ObjectIDsModel(listing, client: client).loadedValue())
        case "browse":
            try await browse(environment: environment)
        default:
            throw invocation.usageError(ToolText.sentence("usage.missingCommand"))
        }
    }

    private func search() async throws {
        let query = try MetSearchOptions.query(from: invocation)
        let explicitLimit = try invocation.integer("limit", in: 0...100_000)
        if invocation.flag("ids-only") {
            var found = try await ObjectIDsModel(.search(query), client: client).loadedValue()
            if let explicitLimit { found.ids = Array(found.ids.prefix(explicitLimit)) }
            return output.objectIDs(found)
        }
        // Without --rate the client's own budget applies: never more than 80 requests in any second.
        let rate = try invocation.positiveDecimal("rate", in: MetSearchOptions.rates)
        let concurrency = try invocation.integer("concurrency", in: 1...64) ?? 8
        let store = MuseumSearchStore(
            client: client, limit: explicitLimit ?? 20, rate: rate, concurrency: concurrency)
        let progress = SearchProgress(store: store, console: console)
        progress.follow()
        await store.search(query)
        progress.finish()
        let result = try Self.outcome(of: store)
        output.search(result, text: query.text, limit: explicitLimit ?? 20)
        try await writeGallery(result, text: query.text)
    }

    /// What a settled search store shows: its objects in search order, the skipped ones and the number of matches;
    /// or the failure it settled on, or an interruption when it went back to idle.
    static func outcome(of store: MuseumSearchStore) throws(Failure) -> FetchedObjects {
        switch store.state {
        case .finished:
            return FetchedObjects(objects: store.objects, skipped: store.skipped, matches: store.matches)
        case .failed(let message):
            throw store.lastFailure.map { Failure($0.classified) } ?? Failure(.failure, message)
        case .idle, .searching, .fetching:
            throw Failure(.interrupted, ToolText.sentence("failure.interrupted"))
        }
    }

    private func writeGallery(_ result: FetchedObjects, text: String) async throws {
        guard let folder = invocation.value("html") else { return }
        guard !folder.isEmpty else { throw invocation.usageError(ToolText.sentence("tool.htmlNeedsFolder")) }
        let objects = result.objects
        let gallery = Gallery(
            title: ToolText.sentence("met.galleryTitle", ["text": text]),
            subtitle: ToolText.counted(
                "met.gallerySubtitle", count: result.matches,
                ["shown": String(objects.count), "matches": String(result.matches)]),
            generator: "met \(MetTool.version)",
            items: objects.map { object in
                GalleryItem(
                    title: object.title ?? ToolText.sentence("met.untitled"),
                    subtitle: object.artistDisplayName ?? object.culture,
                    details: [object.objectDate, object.medium, object.department].compactMap { $0 },
                    badge: String(object.objectID), imageURL: object.thumbnail,
                    fallbackImageURL: object.primaryImageSmall == nil ? nil : object.primaryImage,
                    link: object.objectURL)
            })
        try await GalleryWriter().write(gallery, toFolder: folder, setup: setup, console: console)
    }

    /// A day as `YYYY-MM-DD`, midnight UTC.
    static func day(_ text: String) throws(UsageError) -> Date {
        let parts = text.split(separator: "-", omittingEmptySubsequences: false)
        var components = DateComponents()
        components.calendar = Calendar(identifier: .gregorian)
        components.timeZone = TimeZone(identifier: "UTC")
        if parts.count == 3, parts[0].count == 4, parts[1].count == 2, parts[2].count == 2,
            let year = Int(parts[0]), let month = Int(parts[1]), let day = Int(parts[2])
        {
            components.year = year
            components.month = month
            components.day = day
            if components.isValidDate, let date = components.date { return date }
        }
        throw UsageError(
            "--since expects a day as YYYY-MM-DD, such as 2024-01-31, not '\(UsageError.echo(text))'",
            helpCommand: "met objects")
    }
}
