import Errand
import FeatureViews
import MetMuseum
import MuseumFeature
import SwiftUI

/// One object of the results: its picture, title and summary line. An object the app can show opens its screen; one
/// the museum shows no picture of opens its page on the museum's site instead.
struct ObjectRow: View {
    let object: MetObject
    let pictures: DataPipeline

    var body: some View {
        if let page = object.externalPage {
            Link(destination: page) { label }
        } else {
            NavigationLink(value: object) { label }
        }
    }

    private var label: some View {
        HStack(spacing: 12) {
            PictureView(ObjectPicture(url: object.thumbnail, pipeline: pictures))
                .frame(width: 64, height: 64)
                .clipShape(RoundedRectangle(cornerRadius: 8))
            VStack(alignment: .leading) {
                Text(object.displayTitle).font(.headline).lineLimit(2)
                Text(object.summaryLine).font(.subheadline).foregroundStyle(.secondary).lineLimit(1)
            }
        }
    }
}
