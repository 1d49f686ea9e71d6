import Benchmark
import CPURenderer
import Foundation
import GLRenderer
import LayerCompositor
import LayerKit

/// The hot paths, measured with package-benchmark: matrix math, compositor build for 10,000
/// layers, display list → GL records (the CPU work of a changed GL frame; the GL calls
/// themselves are measured by `layerkit bench --backend gl`, which has a context), and the CPU
/// rasterization of one quad.
let benchmarks: @Sendable () -> Void = {
    Benchmark.defaultConfiguration = .init(metrics: [.wallClock, .mallocCountTotal], maxDuration: .seconds(5))

    Benchmark("CATransform3D concat + invert") { benchmark in
        var t = CATransform3DMakeRotation(0.3, 0, 1, 0)
        t.m34 = -1.0 / 500
        var acc = CATransform3DIdentity
        for _ in benchmark.scaledIterations {
            acc = acc.concatenating(t).inverted()
        }
        blackHole(acc)
    }

    // The many-layer kinds; `nested` is about depth, with its own benchmark below.
    let wide = BenchmarkScene.allCases.filter { $0 != .nested }
    for kind in wide {
        let snapshot = kind.make(count: 10_000).root.snapshot()
        Benchmark("Compositor build, \(kind.rawValue) 10,000 layers") { benchmark in
            for _ in benchmark.scaledIterations {
                blackHole(Compositor.displayList(root: snapshot, width: 1280, height: 720, scale: 1, background: nil))
            }
        }
    }

    let nested = BenchmarkScene.nested.make(count: 50).root.snapshot()
    Benchmark("Compositor build, nested 50 levels") { benchmark in
        for _ in benchmark.scaledIterations {
            blackHole(Compositor.displayList(root: nested, width: 200, height: 200, scale: 1, background: nil))
        }
    }

    for kind in wide {
        let list = Compositor.displayList(root: kind.make(count: 1_000).root.snapshot(), width: 1280, height: 720, scale: 1, background: nil)
        Benchmark("GL records, \(kind.rawValue) 1,000 layers (\(list.quadCount) quads)") { benchmark in
            for _ in benchmark.scaledIterations { blackHole(GLRenderer.recordTexels(for: list)) }
        }
    }

    let quad: DisplayList = {
        let layer = CALayer()
        layer.bounds = CGRect(x: 0, y: 0, width: 256, height: 256)
        layer.position = CGPoint(x: 200, y: 200)
        layer.contents = BenchmarkScene.leafImage
        layer.transform = CATransform3DMakeRotation(0.5, 0, 0, 1)
        return Compositor.displayList(root: layer.snapshot(), width: 400, height: 400, scale: 1, background: nil)
    }()
    let renderer = CPURenderer()
    renderer.tracksDamage = false  // the same list every iteration: with damage tracking nothing would be drawn
    Benchmark("CPU rasterization of one 256x256 image quad") { benchmark in
        // 400x400: within the canvas limit, so render cannot throw.
        for _ in benchmark.scaledIterations { blackHole(try! renderer.render(quad)) }
    }
}
