// swift-tools-version:6.1
import PackageDescription

// Listings and tutorial code as iOS developers type them, with nothing but the LayerKit product:
// each file imports QuartzCore, as it would on iOS. CI builds and runs it (exit 1 if a listing
// does not mean what it means on iOS).
let package = Package(
    name: "LayerKitPorts",
    dependencies: [
        .package(name: "LayerKit", path: "../.."),
    ],
    targets: [
        .executableTarget(name: "ported-listings", dependencies: [.product(name: "LayerKit", package: "LayerKit")]),
    ],
    swiftLanguageModes: [.v5]
)
