import Benchmark
import CPURenderer
import Foundation
import LayerCompositor
import LayerKit

/// The hot paths, measured with package-benchmark: matrix math, compositor build for 10,000
/// layers, and the CPU rasterization of one quad. (GL batch building is measured by
/// `layerkit bench --backend gl`, which needs a context.)
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

    for kind in BenchmarkScene.allCases {
        let snapshot = kind.make(count: 10_000).root.snapshot()
        Benchmark("Compositor build, \(kind.rawValue) 10,000 layers") { benchmark in
            for _ in benchmark.scaledIterations {
                blackHole(Compositor.displayList(root: snapshot, width: 1280, height: 720, scale: 1, background: nil))
            }
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
    Benchmark("CPU rasterization of one 256x256 image quad") { benchmark in
        for _ in benchmark.scaledIterations { blackHole(renderer.render(quad)) }
    }
}
