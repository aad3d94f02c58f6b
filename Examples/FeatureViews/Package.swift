// swift-tools-version: 6.0
// The SwiftUI pieces both example apps share: a screen's status and a picture. Apple platforms only.
import PackageDescription

let package = Package(
    name: "FeatureViews",
    platforms: [.iOS(.v18), .macOS(.v15)],
    products: [.library(name: "FeatureViews", targets: ["FeatureViews"])],
    dependencies: [.package(name: "Errand", path: "../..")],
    targets: [
        .target(name: "FeatureViews", dependencies: [.product(name: "FeatureState", package: "Errand")])
    ]
)
