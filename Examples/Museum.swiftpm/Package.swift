// swift-tools-version: 6.0
// The museum app on The Met Collection API, as an app package: open this folder in Xcode (or Swift Playgrounds) and
// run it on an iPhone simulator. Every state and sentence comes from Errand's MuseumFeature; the views only show them.
import AppleProductTypes
import PackageDescription

let package = Package(
    name: "Museum",
    platforms: [.iOS("18.0")],
    products: [
        .iOSApplication(
            name: "Museum",
            targets: ["Museum"],
            bundleIdentifier: "org.errand.examples.museum",
            displayVersion: "1.0",
            bundleVersion: "1",
            appIcon: .placeholder(icon: .palette),
            accentColor: .presetColor(.red),
            supportedDeviceFamilies: [.phone, .pad],
            supportedInterfaceOrientations: [.portrait, .landscapeRight, .landscapeLeft]
        )
    ],
    dependencies: [
        .package(name: "Errand", path: "../.."),
        .package(name: "FeatureViews", path: "../FeatureViews"),
    ],
    targets: [
        .executableTarget(
            name: "Museum",
            dependencies: [
                .product(name: "MuseumFeature", package: "Errand"), .product(name: "Errand", package: "Errand"),
                .product(name: "FeatureViews", package: "FeatureViews"),
            ],
            path: "Sources"
        )
    ]
)
