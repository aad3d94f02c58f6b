// swift-tools-version: 6.0
// The recipe app on TheMealDB, as an app package: open this folder in Xcode (or Swift Playgrounds) and run it on an
// iPhone simulator. Every state and sentence comes from Errand's RecipesFeature; the views only show them.
import AppleProductTypes
import PackageDescription

let package = Package(
    name: "Recipes",
    platforms: [.iOS("18.0")],
    products: [
        .iOSApplication(
            name: "Recipes",
            targets: ["Recipes"],
            bundleIdentifier: "org.errand.examples.recipes",
            displayVersion: "1.0",
            bundleVersion: "1",
            appIcon: .placeholder(icon: .carrot),
            accentColor: .presetColor(.orange),
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
            name: "Recipes",
            dependencies: [
                .product(name: "RecipesFeature", package: "Errand"), .product(name: "Errand", package: "Errand"),
                .product(name: "FeatureViews", package: "FeatureViews"),
            ],
            path: "Sources"
        )
    ]
)
