// swift-tools-version:6.1
import PackageDescription

let package = Package(
    name: "LayerKitPrograms",
    dependencies: [
        // In your own package: .package(url: "https://example.com/you/LayerKit.git", branch: "main")
        .package(name: "LayerKit", path: "../.."),
    ],
    targets: [
        .target(name: "ListingTree", dependencies: [.product(name: "LayerKit", package: "LayerKit")]),
        .executableTarget(name: "render-png", dependencies: [
            "ListingTree",
            .product(name: "LayerCompositor", package: "LayerKit"),
            .product(name: "CPURenderer", package: "LayerKit"),
        ]),
        .executableTarget(name: "render-gl", dependencies: [
            "ListingTree",
            .product(name: "LayerCompositor", package: "LayerKit"),
            .product(name: "GLRenderer", package: "LayerKit"),
        ]),
        .executableTarget(name: "window", dependencies: [
            "ListingTree",
            .product(name: "LayerCompositor", package: "LayerKit"),
            .product(name: "GLRenderer", package: "LayerKit"),
            .product(name: "CGLFW", package: "LayerKit"),
        ]),
    ]
)
