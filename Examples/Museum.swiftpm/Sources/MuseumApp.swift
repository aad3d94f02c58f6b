import Errand
import Foundation
import MetMuseum
import MuseumFeature
import SwiftUI

/// The museum app: search The Met, see the objects as they arrive, open one. With a mirror of the collection in the
/// app's documents folder (made by `met mirror`, copied in), every search runs offline.
@main
struct MuseumApp: App {
    let source: MuseumDataSource
    let pictures: DataPipeline

    init() {
        let documents = URL.documentsDirectory.appending(path: "met-mirror")
        let online = MetClient()
        source = (try? MuseumDataSource.mirror(in: documents)) ?? .met(online)
        pictures = DataPipeline.standard(named: "museum-pictures", client: online.client)
    }

    var body: some Scene {
        WindowGroup {
            NavigationStack { SearchView(source: source, pictures: pictures) }
        }
    }
}
