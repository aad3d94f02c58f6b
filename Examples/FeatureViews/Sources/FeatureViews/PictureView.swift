import FeatureState
import SwiftUI
import UIKit

/// A picture from a ``FeatureState/PictureModel``: a quiet grey placeholder until its bytes arrive (calmer in long
/// lists than a spinner), then the picture, filling the frame the caller gives it.
public struct PictureView<Failure: PresentableFailure>: View {
    @State private var model: PictureModel<Failure>

    /// Shows `model`'s picture, loading it when the view appears.
    public init(_ model: PictureModel<Failure>) {
        _model = State(initialValue: model)
    }

    public var body: some View {
        Group {
            if let data = model.state.value, let image = UIImage(data: data) {
                Image(uiImage: image).resizable().scaledToFill()
            } else {
                Rectangle().fill(.quaternary)
            }
        }
        .task { await model.loadIfIdle() }
    }
}
