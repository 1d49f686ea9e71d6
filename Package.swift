// swift-tools-version:6.0
import PackageDescription

// The pipeline, one target per stage (see README "Architecture"): LayerKit (model) →
// LayerCompositor (DisplayList) → CPURenderer / GLRenderer (pixels). Apps pick the backend.
let package = Package(
    name: "LayerKit",
    products: [
        .library(name: "LayerKit", targets: ["LayerKit"]),
        .library(name: "LayerCompositor", targets: ["LayerCompositor"]),
        .library(name: "CPURenderer", targets: ["CPURenderer"]),
        .library(name: "GLRenderer", targets: ["GLRenderer"]),
        .executable(name: "layerkit", targets: ["layerkit"]),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.5.0"),
    ],
    targets: [
        .systemLibrary(name: "CEGL", path: "Sources/CEGL", pkgConfig: "egl",
                       providers: [.apt(["libegl-dev", "libegl-mesa0"])]),
        .systemLibrary(name: "CGL", path: "Sources/CGL", pkgConfig: "opengl",
                       providers: [.apt(["libgl-dev"])]),
        .systemLibrary(name: "CGLFW", path: "Sources/CGLFW", pkgConfig: "glfw3",
                       providers: [.apt(["libglfw3-dev"])]),
        .systemLibrary(name: "CPNG", path: "Sources/CPNG", pkgConfig: "libpng",
                       providers: [.apt(["libpng-dev"])]),
        .target(name: "LayerKit", dependencies: ["CPNG"]),
        .target(name: "LayerCompositor", dependencies: ["LayerKit"]),
        .target(name: "CPURenderer", dependencies: ["LayerCompositor"]),
        .target(name: "GLRenderer", dependencies: ["LayerCompositor", "CEGL", "CGL"]),
        .executableTarget(name: "layerkit", dependencies: [
            "LayerKit", "LayerCompositor", "CPURenderer", "GLRenderer",
            .product(name: "ArgumentParser", package: "swift-argument-parser"),
        ]),
        .target(name: "LayerKitTestSupport", dependencies: ["LayerKit", "LayerCompositor", "CPURenderer"],
                path: "Tests/LayerKitTestSupport"),
        .testTarget(name: "LayerKitTests", dependencies: ["LayerKit", "LayerKitTestSupport"]),
        .testTarget(name: "GLRendererTests", dependencies: ["GLRenderer", "CGL"]),
        .testTarget(name: "LayerCompositorTests", dependencies: ["LayerCompositor", "LayerKitTestSupport"]),
        .testTarget(name: "CPURendererTests", dependencies: ["CPURenderer", "LayerKitTestSupport"]),
    ],
    swiftLanguageModes: [.v5]
)
