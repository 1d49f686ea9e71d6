// swift-tools-version:6.1
import PackageDescription

// A program's own layer tree (a notification badge) under snapshot tests, as a team would
// write them with the LayerKitTesting product. `demo.sh` (run by CI) shows the workflow:
// the first run records the references and fails saying so, the second passes, and a changed
// tree fails with reference, actual and difference images.
let package = Package(
    name: "SnapshotTestsExample",
    dependencies: [
        // In your own package: .package(url: "https://example.com/you/LayerKit.git", branch: "main")
        .package(name: "LayerKit", path: "../.."),
    ],
    targets: [
        .target(name: "Badge", dependencies: [.product(name: "LayerKit", package: "LayerKit")]),
        .testTarget(name: "BadgeTests", dependencies: [
            "Badge",
            .product(name: "LayerKitTesting", package: "LayerKit"),
        ], exclude: ["__Snapshots__"]),
        // What a suite of assertions costs (BENCHMARKS.md): swift run -c release snapshot-bench
        .executableTarget(name: "snapshot-bench", dependencies: [
            "Badge", .product(name: "LayerKitTesting", package: "LayerKit"),
        ]),
    ],
    swiftLanguageModes: [.v5]
)
