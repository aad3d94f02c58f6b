// swift-tools-version:6.0
import PackageDescription

// libcurl exists on Linux and in the macOS SDK, never on iOS, tvOS, watchOS or visionOS. `ERRAND_NO_CURL=1` leaves it
// out on every platform, so a Linux machine compiles and tests exactly the source set an iOS build compiles.
let buildsCurl = Context.environment["ERRAND_NO_CURL"] != "1"
let curl: [Target.Dependency] = buildsCurl ? [.target(name: "CCurl", condition: .when(platforms: [.linux, .macOS]))] : []
let curlLibrary: [Target] = buildsCurl ? [
    .systemLibrary(
        name: "CCurl",
        pkgConfig: "libcurl",
        providers: [.apt(["libcurl4-openssl-dev"]), .brew(["curl"])]
    ),
] : []

// The picture decoders (libjpeg-turbo, libpng) are system libraries on Linux and, through Homebrew, on macOS; the
// browsers draw a labelled placeholder without them. `ERRAND_NO_PICTURES=1` leaves them out, as a Mac without the
// Homebrew packages needs.
let buildsPictures = Context.environment["ERRAND_NO_PICTURES"] != "1"
let pictureCodecs: [Target.Dependency] = buildsPictures
    ? ["CJPEG", "CPNG"].map { .target(name: $0, condition: .when(platforms: [.linux, .macOS])) } : []
let pictureLibraries: [Target] = buildsPictures ? [
    .systemLibrary(
        name: "CJPEG", pkgConfig: "libjpeg", providers: [.apt(["libjpeg62-turbo-dev"]), .brew(["jpeg-turbo"])]),
    .systemLibrary(name: "CPNG", pkgConfig: "libpng", providers: [.apt(["libpng-dev"]), .brew(["libpng"])]),
] : []

let package = Package(
    name: "Errand",
    // The user-facing sentences' string tables (Resources/<language>.lproj) fall back to English.
    defaultLocalization: "en",
    platforms: [.macOS(.v15), .iOS(.v18), .tvOS(.v18), .watchOS(.v11), .visionOS(.v2)],
    products: [
        .library(name: "Errand", targets: ["Errand"]),
        .library(name: "ErrandTesting", targets: ["ErrandTesting"]),
        .library(name: "MealDB", targets: ["MealDB"]),
        .library(name: "MetMuseum", targets: ["MetMuseum"]),
        .library(name: "RecipesFeature", targets: ["RecipesFeature"]),
        .library(name: "MuseumFeature", targets: ["MuseumFeature"]),
        .library(name: "MetMirror", targets: ["MetMirror"]),
        .executable(name: "mealdb", targets: ["mealdb"]),
        .executable(name: "met", targets: ["met"]),
        .executable(name: "errand-bench", targets: ["errand-bench"]),
        .executable(name: "errand-soak", targets: ["errand-soak"]),
        .executable(name: "errand-memory", targets: ["errand-memory"]),
        .executable(name: "errand-mirror-bench", targets: ["errand-mirror-bench"]),
        .executable(name: "errand-examples", targets: ["errand-examples"]),
        .executable(name: "fuzz-url", targets: ["fuzz-url"]),
        .executable(name: "fuzz-http-headers", targets: ["fuzz-http-headers"]),
        .executable(name: "fuzz-models", targets: ["fuzz-models"]),
        .executable(name: "fuzz-cli", targets: ["fuzz-cli"]),
        .executable(name: "fuzz-decoding", targets: ["fuzz-decoding"]),
        .executable(name: "fuzz-output", targets: ["fuzz-output"]),
        .executable(name: "fuzz-event-stream", targets: ["fuzz-event-stream"]),
        .executable(name: "fuzz-numbers", targets: ["fuzz-numbers"]),
        .executable(name: "fuzz-websocket-frames", targets: ["fuzz-websocket-frames"]),
        .executable(name: "fuzz-cookie-file", targets: ["fuzz-cookie-file"]),
        .executable(name: "fuzz-har", targets: ["fuzz-har"]),
    ],
    targets: curlLibrary + pictureLibraries + [
        // System libraries (module map + shim header); CCurl is declared above.
        .systemLibrary(
            name: "CSQLite",
            pkgConfig: "sqlite3",
            providers: [.apt(["libsqlite3-dev"]), .brew(["sqlite"])]
        ),

        // zlib's raw deflate, for WebSocket's permessage-deflate; part of every Apple SDK, zlib1g-dev on Debian.
        .systemLibrary(name: "CZlib", pkgConfig: "zlib", providers: [.apt(["zlib1g-dev"])]),

        // The client: requests, URL building, errors, decoding, middleware, transports, cache.
        .target(name: "Errand", dependencies: curl + ["CSQLite", "CZlib"], resources: [.process("Resources")]),
        .target(name: "ErrandTesting", dependencies: ["Errand"]),

        // SDKs.
        .target(name: "MealDB", dependencies: ["Errand"]),
        .target(name: "MetMuseum", dependencies: ["Errand"], resources: [.process("Resources")]),
        // A local copy of The Met's collection in SQLite with full-text search, filled through the SDK.
        .target(name: "MetMirror", dependencies: ["MetMuseum", "CSQLite"]),

        // App logic.
        .target(name: "FeatureState", dependencies: ["Errand"]),
        .target(name: "RecipesFeature", dependencies: ["MealDB", "FeatureState"], resources: [.process("Resources")]),
        .target(
            name: "MuseumFeature", dependencies: ["MetMuseum", "MetMirror", "FeatureState"],
            resources: [.process("Resources")]),

        // Command-line apps and what they share: argument parsing, output, galleries, exit codes per failure kind.
        .target(name: "CommandLine", dependencies: ["Errand", "FeatureState"], resources: [.process("Resources")]),
        // The full-screen terminal layer of `browse` (grid, keys, raw mode, pictures) and the two apps' screens on it.
        .target(name: "TerminalUI", dependencies: pictureCodecs + ["CommandLine"]),
        .target(name: "RecipesBrowser", dependencies: ["RecipesFeature", "TerminalUI"]),
        .target(name: "MuseumBrowser", dependencies: ["MuseumFeature", "TerminalUI"]),
        .executableTarget(name: "mealdb", dependencies: ["RecipesFeature", "CommandLine", "RecipesBrowser"]),
        .executableTarget(name: "met", dependencies: ["MuseumFeature", "CommandLine", "MuseumBrowser"]),

        // Benchmarks (release builds; never part of `swift test`).
        .executableTarget(name: "errand-bench", dependencies: curl + ["Errand"], path: "Benchmarks/errand-bench"),
        // The soak: thousands of requests through the full client to the fault server (scripts/soak).
        .executableTarget(name: "errand-soak", dependencies: ["Errand"], path: "Benchmarks/soak"),
        // Resident memory while fetching mixed large bodies, round after round, per transport (scripts/bench --memory).
        .executableTarget(name: "errand-memory", dependencies: curl + ["Errand"], path: "Benchmarks/memory"),
        // The mirror at scale: objects/s against the rate, CPU, memory, disk per object; FTS latency over 500,000 rows.
        .executableTarget(name: "errand-mirror-bench", dependencies: ["MetMirror"], path: "Benchmarks/mirror"),

        // The README's and the catalogs' code blocks, compiled and run against the replica (scripts/examples checks they still match).
        .executableTarget(
            name: "errand-examples", dependencies: ["Errand", "MealDB", "MetMuseum", "RecipesFeature", "MuseumFeature"],
            path: "Examples/errand-examples"),

        // Fuzz targets: built by scripts/fuzz with libFuzzer; otherwise programs that replay the inputs they are given.
        // The checks use internal parsers, so release builds of them need `-enable-testing` (scripts/fuzz passes it).
        .target(name: "FuzzChecks", dependencies: ["Errand", "MealDB", "MetMuseum", "CommandLine"], path: "Fuzz/FuzzChecks"),
        .executableTarget(name: "fuzz-url", dependencies: ["FuzzChecks"], path: "Fuzz/fuzz-url"),
        .executableTarget(name: "fuzz-http-headers", dependencies: ["FuzzChecks"], path: "Fuzz/fuzz-http-headers"),
        .executableTarget(name: "fuzz-models", dependencies: ["FuzzChecks"], path: "Fuzz/fuzz-models"),
        .executableTarget(name: "fuzz-cli", dependencies: ["FuzzChecks"], path: "Fuzz/fuzz-cli"),
        .executableTarget(name: "fuzz-decoding", dependencies: ["FuzzChecks"], path: "Fuzz/fuzz-decoding"),
        .executableTarget(name: "fuzz-output", dependencies: ["FuzzChecks"], path: "Fuzz/fuzz-output"),
        .executableTarget(name: "fuzz-event-stream", dependencies: ["FuzzChecks"], path: "Fuzz/fuzz-event-stream"),
        .executableTarget(name: "fuzz-numbers", dependencies: ["FuzzChecks"], path: "Fuzz/fuzz-numbers"),
        .executableTarget(
            name: "fuzz-websocket-frames", dependencies: ["FuzzChecks"], path: "Fuzz/fuzz-websocket-frames"),
        .executableTarget(name: "fuzz-cookie-file", dependencies: ["FuzzChecks"], path: "Fuzz/fuzz-cookie-file"),
        .executableTarget(name: "fuzz-har", dependencies: ["FuzzChecks"], path: "Fuzz/fuzz-har"),

        // A download in a child process, which the download tests kill midway (built with the tests, not a product).
        .executableTarget(name: "errand-download", dependencies: curl + ["Errand"], path: "Tests/Helpers/errand-download"),

        // Test servers' URLs, fixtures and the list of transports, shared by the test targets.
        .target(name: "TestSupport", dependencies: ["Errand"], path: "Tests/Support"),
        .testTarget(name: "ErrandTests", dependencies: ["Errand", "ErrandTesting", "TestSupport"]),
        .testTarget(name: "MealDBTests", dependencies: ["MealDB", "ErrandTesting", "TestSupport"]),
        .testTarget(name: "MetMuseumTests", dependencies: ["MetMuseum", "ErrandTesting", "TestSupport"]),
        .testTarget(name: "MetMirrorTests", dependencies: ["MetMirror", "ErrandTesting", "TestSupport"]),
        .testTarget(name: "RecipesFeatureTests", dependencies: ["RecipesFeature", "ErrandTesting", "TestSupport"]),
        .testTarget(
            name: "MuseumFeatureTests", dependencies: ["MuseumFeature", "MetMirror", "ErrandTesting", "TestSupport"]),
        .testTarget(name: "FeatureStateTests", dependencies: ["FeatureState", "TestSupport"]),
        .testTarget(
            name: "CLITests",
            dependencies: ["Errand", "CommandLine", "RecipesFeature", "MuseumFeature", "MetMirror", "TestSupport"]),
        .testTarget(
            name: "TerminalUITests", dependencies: ["TerminalUI", "RecipesBrowser", "MuseumBrowser", "TestSupport"],
            exclude: ["Snapshots"]),
        // Every seed and every input that once broke a promise, replayed through the fuzz checks.
        .testTarget(name: "FuzzTests", dependencies: ["FuzzChecks"]),
    ],
    swiftLanguageModes: [.v6]
)
