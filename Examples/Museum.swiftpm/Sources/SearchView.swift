import Errand
import FeatureViews
import MetMuseum
import MuseumFeature
import SwiftUI

/// Search the collection: objects appear as they arrive, a new search cancels the running one, and objects the
/// museum does not serve are counted in a notice under the list.
struct SearchView: View {
    let source: MuseumDataSource
    let pictures: DataPipeline
    @State private var store: MuseumSearchStore
    @State private var query = SearchQuery("rhino", hasImages: true)
    @State private var showsFilters = false

    init(source: MuseumDataSource, pictures: DataPipeline) {
        self.source = source
        self.pictures = pictures
        _store = State(initialValue: MuseumSearchStore(source: source, limit: 30))
    }

    var body: some View {
        List {
            Section {
                ForEach(store.objects) { object in ObjectRow(object: object, pictures: pictures) }
            } footer: {
                VStack(alignment: .leading) {
                    if let progress = store.progressText { Text(progress) }
                    if let notice = store.skippedNotice { Text(notice) }
                }
            }
        }
        .listStyle(.plain)
        .overlay {
            if let status = store.status, store.objects.isEmpty || status.offersRetry {
                StatusView(status, retryLabel: MuseumText.tryAgain) { await store.retry() }
            }
        }
        .navigationTitle(store.query?.text ?? query.text)
        .searchable(text: $query.text, prompt: MuseumText.searchPrompt)
        .onSubmit(of: .search) { Task { await store.search(query) } }
        .toolbar {
            Button("Filters", systemImage: "line.3.horizontal.decrease.circle") { showsFilters = true }
        }
        .sheet(isPresented: $showsFilters, onDismiss: { Task { await store.search(query) } }) {
            FiltersView(query: $query, client: source.client)
        }
        .navigationDestination(for: MetObject.self) { object in ObjectDetailView(object: object, pictures: pictures) }
        .task { if store.query == nil { await store.search(query) } }
        .refreshable { await store.retry() }
    }
}
