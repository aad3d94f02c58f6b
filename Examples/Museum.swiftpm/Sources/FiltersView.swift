import FeatureViews
import MetMuseum
import MuseumFeature
import SwiftUI

/// The Met's search filters: a department, highlights only, on view only, with pictures only.
struct FiltersView: View {
    @Binding var query: SearchQuery
    @State private var departments: DepartmentsModel
    @Environment(\.dismiss) private var dismiss

    init(query: Binding<SearchQuery>, client: MetClient) {
        _query = query
        _departments = State(initialValue: DepartmentsModel(client: client))
    }

    var body: some View {
        NavigationStack {
            Form {
                Toggle("Highlights only", isOn: $query.isHighlight)
                Toggle("On view only", isOn: $query.isOnView)
                Toggle("With pictures only", isOn: $query.hasImages)
                if let status = departments.status {
                    StatusView(status, retryLabel: MuseumText.tryAgain) { await departments.retry() }
                } else {
                    Picker("Department", selection: $query.departmentID) {
                        Text(MuseumText.allDepartments).tag(Int?.none)
                        ForEach(departments.state.value ?? [], id: \.id) { department in
                            Text(department.displayName).tag(Int?.some(department.id))
                        }
                    }
                }
            }
            .navigationTitle("Filters")
            .toolbar { Button("Done") { dismiss() } }
            .task { await departments.loadIfIdle() }
        }
    }
}
