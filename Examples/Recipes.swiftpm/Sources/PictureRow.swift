import FeatureViews
import RecipesFeature
import SwiftUI

/// A list row: a 64 × 64 picture with rounded corners, the name beside it in a headline font (two lines at most),
/// and an optional line under it.
struct PictureRow: View {
    let title: String
    let subtitle: String?
    let picture: MealPicture

    var body: some View {
        HStack(spacing: 12) {
            PictureView(picture)
                .frame(width: 64, height: 64)
                .clipShape(RoundedRectangle(cornerRadius: 8))
            VStack(alignment: .leading) {
                Text(title).font(.headline).lineLimit(2)
                if let subtitle { Text(subtitle).font(.subheadline).foregroundStyle(.secondary) }
            }
        }
    }
}
