import Errand
import FeatureViews
import MetMuseum
import MuseumFeature
import SwiftUI

/// One object: its small primary picture and title, then every field the museum filled in, under the labels the
/// terminal app and `met show` use too.
struct ObjectDetailView: View {
    let object: MetObject
    let pictures: DataPipeline

    var body: some View {
        let fields = ObjectFields(object)
        List {
            Section {
                PictureView(ObjectPicture(url: object.detailPicture, pipeline: pictures))
                    .frame(height: 280)
                    .clipShape(RoundedRectangle(cornerRadius: 12))
                Text(object.displayTitle).font(.title2.bold())
                if let artist = fields.artist { Text(artist).foregroundStyle(.secondary) }
            }
            FieldSection(fields: fields.facts)
            FieldSection(fields: fields.place)
            FieldSection(fields: fields.makers)
            Section {
                ForEach(fields.links, id: \.self) { link in
                    if let url = URL(string: link.value) { Link(link.label, destination: url) }
                }
            }
        }
        .navigationBarTitleDisplayMode(.inline)
    }
}

/// Labelled values, one row each.
private struct FieldSection: View {
    let fields: [ObjectFields.Field]

    var body: some View {
        Section {
            ForEach(fields, id: \.self) { field in LabeledContent(field.label, value: field.value) }
        }
    }
}
