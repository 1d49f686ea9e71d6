// swift-tools-version:6.1
import PackageDescription
import class Foundation.ProcessInfo

// The pipeline, one target per stage (see README "Architecture"): LayerKitDrawing (Core
// Graphics' job: colours, images, paths, rasterizing, text) ← LayerKitCore (the layer model,
// which re-exports it) → LayerCompositor (DisplayList) → CPURenderer / GLRenderer (pixels);
// LayerKitScene reads and writes scene files (layer trees on a canvas) beside them.
// LayerKit re-exports them all (QuartzCore and CoreGraphics are its Apple names); the tools
// and the tests import the stages they use.
// The modules that do the per-pixel and per-quad work are optimized in debug builds too when
// this package is built on its own (its tests, the examples beside it), not when another
// package depends on it (SwiftPM refuses unsafe flags in a dependency fetched by version):
// unoptimized, the CPU reference draws a shadowed scene 40 times slower (36 s against 0.85 s),
// which was most of `swift test`'s time. -enable-testing still holds, so @testable imports and
// debugging of everything else are unchanged; the pixels are the same (no fast-math, no FP
// contraction).
let optimizedInDebug = !Context.packageDirectory.contains("/checkouts/")
let optimizeSwift: [SwiftSetting] = optimizedInDebug ? [.unsafeFlags(["-O"], .when(configuration: .debug))] : []
let optimizeC: [CSetting] = optimizedInDebug ? [.unsafeFlags(["-O2", "-ffp-contract=off"], .when(configuration: .debug))] : []

let package = Package(
    name: "LayerKit",
    products: [
        // `import LayerKit` (or Apple's `import QuartzCore` / `import CoreGraphics`) gives a program
        // everything: the model, the compositor and both renderers.
        .library(name: "LayerKit", targets: ["LayerKit", "QuartzCore", "CoreGraphics"]),
        .library(name: "LayerKitDrawing", targets: ["LayerKitDrawing"]),
        .library(name: "LayerCompositor", targets: ["LayerCompositor"]),
        .library(name: "LayerKitScene", targets: ["LayerKitScene"]),
        .library(name: "CPURenderer", targets: ["CPURenderer"]),
        .library(name: "GLRenderer", targets: ["GLRenderer"]),
        // Snapshot assertions for a program's own layer trees, in XCTest and Swift Testing.
        .library(name: "LayerKitTesting", targets: ["LayerKitTesting"]),
        // GLFW's C API for apps that draw into a window (what layerkit-demo uses), so that they
        // need no module map of their own: `import CGLFW`.
        .library(name: "CGLFW", targets: ["CGLFW"]),
        .executable(name: "layerkit", targets: ["layerkit"]),
        .executable(name: "layerkit-demo", targets: ["layerkit-demo"]),
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
        .systemLibrary(name: "CFreeType", path: "Sources/CFreeType", pkgConfig: "freetype2",
                       providers: [.apt(["libfreetype-dev"])]),
        .systemLibrary(name: "CFontconfig", path: "Sources/CFontconfig", pkgConfig: "fontconfig",
                       providers: [.apt(["libfontconfig-dev"])]),
        .systemLibrary(name: "CHarfBuzz", path: "Sources/CHarfBuzz", pkgConfig: "harfbuzz",
                       providers: [.apt(["libharfbuzz-dev"])]),
        .systemLibrary(name: "CFriBidi", path: "Sources/CFriBidi", pkgConfig: "fribidi",
                       providers: [.apt(["libfribidi-dev"])]),
        .target(name: "CHotLoops", path: "Sources/CHotLoops", cSettings: optimizeC),
        // libjpeg-turbo behind a C error manager that returns (libjpeg's default one exits).
        .target(name: "CJPEG", path: "Sources/CJPEG"),
        .target(name: "LayerKitDrawing", dependencies: ["CPNG", "CFreeType", "CFontconfig", "CHarfBuzz", "CFriBidi",
                                                          "CHotLoops", "CJPEG"], swiftSettings: optimizeSwift),
        .target(name: "LayerKitCore", dependencies: ["LayerKitDrawing", "CHotLoops"], swiftSettings: optimizeSwift),
        .target(name: "LayerCompositor", dependencies: ["LayerKitCore"], swiftSettings: optimizeSwift),
        // Scene files: the JSON format's reader and writer, SVG path data, drawing operations,
        // recording plans and the benchmark scenes; a scene's display list through the compositor.
        .target(name: "LayerKitScene", dependencies: ["LayerKitCore", "LayerCompositor"], swiftSettings: optimizeSwift),
        .target(name: "CPURenderer", dependencies: ["LayerCompositor", "CHotLoops"], swiftSettings: optimizeSwift),
        .target(name: "GLRenderer", dependencies: ["LayerCompositor", "CEGL", "CGL"]),
        // The umbrella a program imports, and Apple's module names for it: nothing but re-exports.
        .target(name: "LayerKit", dependencies: ["LayerKitCore", "LayerKitScene", "LayerCompositor", "CPURenderer", "GLRenderer"]),
        .target(name: "QuartzCore", dependencies: ["LayerKit"]),
        .target(name: "CoreGraphics", dependencies: ["LayerKit"]),
        .target(name: "LayerKitTesting", dependencies: ["LayerKit"]),
        .executableTarget(name: "layerkit", dependencies: [
            "LayerKitCore", "LayerKitScene", "LayerCompositor", "CPURenderer", "GLRenderer",
            .product(name: "ArgumentParser", package: "swift-argument-parser"),
        ]),
        .executableTarget(name: "layerkit-demo", dependencies: [
            "LayerKitCore", "LayerKitScene", "LayerCompositor", "GLRenderer", "CGL", "CGLFW",
            .product(name: "ArgumentParser", package: "swift-argument-parser"),
        ]),
        .target(name: "LayerKitTestSupport", dependencies: ["LayerKitCore", "LayerKitScene", "LayerCompositor", "CPURenderer"],
                path: "Tests/LayerKitTestSupport"),
        .testTarget(name: "LayerKitDrawingTests", dependencies: ["LayerKitDrawing", "LayerKitCore", "LayerKitTestSupport", "CJPEG"]),
        .testTarget(name: "LayerKitTests", dependencies: ["LayerKitCore", "LayerKitScene", "LayerKitTestSupport"]),
        // Files as an iOS project has them: they import only QuartzCore (or LayerKit) and must
        // compile and mean what they mean on Apple's platforms.
        .testTarget(name: "PortTests", dependencies: ["QuartzCore", "CoreGraphics", "LayerKit"]),
        .testTarget(name: "GLRendererTests", dependencies: ["GLRenderer", "CGL", "CPURenderer", "LayerKitScene", "LayerKitTestSupport"]),
        .testTarget(name: "LayerCompositorTests", dependencies: ["LayerCompositor", "LayerKitScene", "LayerKitTestSupport"],
                    exclude: ["DisplayLists"]),
        // The goldens and their scene list are read (and the goldens re-made, LAYERKIT_UPDATE_GOLDENS=1)
        // in the source tree through #filePath, which works under any test runner; a resource copy in
        // the build would go unread.
        .testTarget(name: "CPURendererTests", dependencies: ["CPURenderer", "LayerKitScene", "LayerKitTestSupport"],
                    exclude: ["Goldens"]),
        .testTarget(name: "LayerKitTestingTests", dependencies: ["LayerKitTesting"], exclude: ["__Snapshots__"]),
        // Runs the layerkit binary of the same build as a user does: bad input, GL fallback, soak
        // (and @testable imports it for the pieces that are plain functions).
        .testTarget(name: "LayerKitCLITests", dependencies: ["layerkit", "LayerKitCore", "LayerKitScene", "LayerKitTestSupport"]),
        // The demo's pages (@testable import of the executable) and its binary run under Xvfb.
        .testTarget(name: "DemoTests", dependencies: ["layerkit-demo", "LayerKitCore", "LayerKitScene", "LayerCompositor", "CPURenderer",
                                                      "LayerKitTestSupport"]),
    ],
    swiftLanguageModes: [.v5]
)

// The package-benchmark suites (Benchmarks/) build only when asked for, so that `swift build`
// and `swift test` stay lean: `LAYERKIT_BENCHMARKS=1 swift package benchmark`.
if ProcessInfo.processInfo.environment["LAYERKIT_BENCHMARKS"] != nil {
    package.dependencies.append(.package(url: "https://github.com/ordo-one/benchmark", from: "1.38.0",
                                         traits: ["MallocInterposer"]))
    package.targets.append(.executableTarget(
        name: "HotPaths",
        dependencies: ["LayerKit", "LayerCompositor", "CPURenderer", "GLRenderer", .product(name: "Benchmark", package: "benchmark")],
        path: "Benchmarks/HotPaths",
        plugins: [.plugin(name: "BenchmarkPlugin", package: "benchmark")]))
}
