// swift-tools-version:6.0
import PackageDescription

let package = Package(
    name: "Errand",
    platforms: [.macOS(.v15), .iOS(.v18), .tvOS(.v18), .watchOS(.v11)],
    products: [
        .library(name: "Errand", targets: ["Errand"]),
        .library(name: "ErrandTesting", targets: ["ErrandTesting"]),
        .library(name: "MealDB", targets: ["MealDB"]),
        .library(name: "MetMuseum", targets: ["MetMuseum"]),
        .library(name: "RecipesFeature", targets: ["RecipesFeature"]),
        .library(name: "MuseumFeature", targets: ["MuseumFeature"]),
        .executable(name: "mealdb", targets: ["mealdb"]),
        .executable(name: "met", targets: ["met"]),
        .executable(name: "errand-bench", targets: ["errand-bench"]),
    ],
    targets: [
        // System libraries (module map + shim header).
        .systemLibrary(
            name: "CCurl",
            pkgConfig: "libcurl",
            providers: [.apt(["libcurl4-openssl-dev"]), .brew(["curl"])]
        ),
        .systemLibrary(
            name: "CSQLite",
            pkgConfig: "sqlite3",
            providers: [.apt(["libsqlite3-dev"]), .brew(["sqlite"])]
        ),

        // The client: requests, URL building, errors, decoding, middleware, transports, cache.
        .target(name: "Errand", dependencies: ["CCurl", "CSQLite"]),
        .target(name: "ErrandTesting", dependencies: ["Errand"]),

        // SDKs.
        .target(name: "MealDB", dependencies: ["Errand"]),
        .target(name: "MetMuseum", dependencies: ["Errand"]),

        // App logic.
        .target(name: "RecipesFeature", dependencies: ["MealDB"]),
        .target(name: "MuseumFeature", dependencies: ["MetMuseum"]),

        // Command-line apps and their argument parser.
        .target(name: "CommandLine", dependencies: ["Errand"]),
        .executableTarget(name: "mealdb", dependencies: ["RecipesFeature", "CommandLine"]),
        .executableTarget(name: "met", dependencies: ["MuseumFeature", "CommandLine"]),

        // Benchmarks (release builds; never part of `swift test`).
        .executableTarget(name: "errand-bench", dependencies: ["Errand", "CCurl"], path: "Benchmarks/errand-bench"),

        // Test servers' URLs, fixtures and the list of transports, shared by the test targets.
        .target(name: "TestSupport", dependencies: ["Errand"], path: "Tests/Support"),
        .testTarget(name: "ErrandTests", dependencies: ["Errand", "ErrandTesting", "TestSupport"]),
        .testTarget(name: "MealDBTests", dependencies: ["MealDB", "ErrandTesting", "TestSupport"]),
        .testTarget(name: "MetMuseumTests", dependencies: ["MetMuseum", "ErrandTesting", "TestSupport"]),
        .testTarget(name: "RecipesFeatureTests", dependencies: ["RecipesFeature", "ErrandTesting", "TestSupport"]),
        .testTarget(name: "MuseumFeatureTests", dependencies: ["MuseumFeature", "ErrandTesting", "TestSupport"]),
        .testTarget(name: "CLITests", dependencies: ["Errand", "CommandLine", "TestSupport"]),
    ],
    swiftLanguageModes: [.v6]
)
