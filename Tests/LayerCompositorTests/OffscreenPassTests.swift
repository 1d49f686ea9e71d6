import LayerCompositor
import LayerKitCore
import LayerKitScene
import XCTest

/// Offscreen passes stay bounded: each lives from its pass to its last reader, a masked layer's
/// passes are the mask's size however deep the nesting, a wide blur runs downsampled, and a
/// frame's offscreen memory stays within `Compositor.offscreenMemoryBudget`.
final class OffscreenPassTests: XCTestCase {
    private func pass(_ i: Int, _ w: Int, _ h: Int, _ content: RenderPass.Content) -> RenderPass {
        RenderPass(index: i, purpose: i == 4 ? .canvas : .groupOpacity, width: w, height: h, content: content, label: "p\(i)")
    }

    private func passQuad(_ source: Int, mask: Int? = nil) -> DrawQuad {
        DrawQuad(transform: .identity, inverse: PlaneMap(inverseOf: .identity)!, rect: CGRect(x: 0, y: 0, width: 10, height: 10),
                 shape: .rect(corners: .square), fill: .pass(PassFill(pass: source, scale: 1, mask: mask)), opacity: 1,
                 antialiased: false, clips: [], label: "q")
    }

    /// Pass 0 (10x10) is blurred by 1 and read by the canvas; 2 (20x20) masks nothing but is
    /// read by 3 (5x5) with 0 as its mask; the canvas reads 1 and 3.
    func testLastReadersAndPeakBytes() {
        let list = DisplayList(passes: [
            pass(0, 10, 10, .quads([])),
            pass(1, 10, 10, .blur(source: 0, horizontal: true, weights: [1])),
            pass(2, 20, 20, .quads([])),
            pass(3, 5, 5, .quads([passQuad(2, mask: 0)])),
            pass(4, 100, 100, .quads([passQuad(1), passQuad(3)])),
        ], width: 100, height: 100, background: .clear)
        XCTAssertEqual(list.passes[3].sources, [2, 0])
        XCTAssertEqual(list.lastReaders, [3, 4, 3, 4, nil])
        // Live while each pass draws: 400; 400+400; 800+1600; 2400+100 (then 0 and 2 go); the
        // canvas is not offscreen.
        XCTAssertEqual(list.peakOffscreenBytes, 2500)
    }

    /// The scene: 200x200 levels, each masked by a 180x180 square at (10, 10) and
    /// shadowed with radius 20 at offset (4, 6). The mask masks the shadow too, so every level's
    /// passes cover the mask and what casts a shadow into it (the mask moved back by (4, 6)):
    /// x 6…190, y 4…190, plus the blur's reach, 3σ + 1 = 61 points each side: 306x308 pixels at
    /// every depth; σ = 20 > 8 blurs at a quarter of that (20 > 16 but ≤ 32: factor 4,
    /// ⌈306 / 4⌉ = ⌈308 / 4⌉ = 77).
    func testNestedMaskedPassesDoNotGrowWithDepth() {
        for depth in [1, 12, 50] {
            let list = Compositor.displayList(for: BenchmarkScene.nested.make(count: depth))
            XCTAssertEqual(list.passes.count, 6 * depth + 1, "content, mask, downsample, 2 blurs, shadow and content a level")
            for p in list.passes.dropLast() {
                let size = p.purpose == .shadowDownsample || p.purpose == .shadowBlur ? [77, 77] : [306, 308]
                XCTAssertEqual([p.width, p.height], size, "depth \(depth) pass \(p.index) \(p.purpose)")
            }
            // A level's six passes and its child's result and shadow, at most, at once.
            XCTAssertLessThanOrEqual(list.peakOffscreenBytes, 4 * (5 * 306 * 308 + 3 * 77 * 77), "depth \(depth)")
            if case let .downsample(source, factor) = list.passes[2].content {
                XCTAssertEqual([source, factor], [0, 4])
            } else {
                XCTFail("pass 2 downsamples the shadow's source, the unmasked content")
            }
        }
    }

    /// Twenty sibling 1900x1900 layers with group opacity: all twenty passes wait for the canvas,
    /// 20 × 1900² × 4 = 288.8 MB at full scale, over the 128 MiB budget; the compositor renders
    /// them at a lower scale that fits.
    func testOffscreenMemoryStaysWithinTheBudget() {
        let root = CALayer()
        root.frame = CGRect(x: 0, y: 0, width: 2000, height: 2000)
        for i in 0..<20 {
            let l = CALayer()
            l.frame = CGRect(x: 50, y: 50, width: 1900, height: 1900)
            l.opacity = 0.5
            l.backgroundColor = CGColor(red: Double(i) / 20, green: 0, blue: 1, alpha: 1)
            let s = CALayer()
            s.frame = CGRect(x: 10, y: 10, width: 100, height: 100)
            s.backgroundColor = .black
            l.addSublayer(s)
            root.addSublayer(l)
        }
        let list = Compositor.displayList(root: root.snapshot(), width: 2000, height: 2000, scale: 1, background: .white)
        XCTAssertEqual(list.passes.count, 21)
        XCTAssertLessThanOrEqual(list.peakOffscreenBytes, Compositor.offscreenMemoryBudget)
        let scales = list.canvas.quads.compactMap { q -> Double? in
            if case .pass(let f) = q.fill { return f.scale }
            return nil
        }
        XCTAssertEqual(scales.count, 20)
        for s in scales {
            // √(128 MiB / 288.8 MB) = 0.6815; the first shrink (× 0.95) gives 0.647.
            XCTAssertLessThan(s, 0.682)
            XCTAssertGreaterThan(s, 0.5, "no smaller than needed")
        }
        XCTAssertEqual(list.canvas.width, 2000, "the canvas keeps its resolution")
    }
}

/// Finite inputs whose pass geometry overflowed (issue 23).
final class OverflowingPassTests: XCTestCase {
    private func layer(size: CGFloat = 50, _ edit: (CALayer) -> Void) -> CALayer {
        let root = CALayer()
        root.frame = CGRect(x: 0, y: 0, width: 100, height: 100)
        let l = CALayer()
        l.frame = CGRect(x: 0, y: 0, width: size, height: size)
        l.backgroundColor = CGColor(red: 1, green: 0, blue: 0, alpha: 1)
        edit(l)
        root.addSublayer(l)
        return root
    }

    private func shadowed(size: CGFloat, radius: CGFloat) -> DisplayList {
        Compositor.displayList(root: layer(size: size) {
            $0.shadowOpacity = 1
            $0.shadowRadius = radius
        }.snapshot(), width: 100, height: 100, scale: 1, background: nil)
    }

    /// A shadow whose peak rounds to nothing is not drawn, and the layer needs no pass. A blur
    /// of sigma R peaks, over a 10 x 10 square, at erf(10 / (2√2·R))², at most
    /// (10 / (R·√(2π)))²: 0.0025 (0.63 of 255, drawn as 1) at R = 80, 0.0016 (0.41, drawn as
    /// 0) at R = 100. At 1e308 (drawn as 10^6) a 50-point layer's shadow is nothing either.
    func testInvisibleShadowIsNotDrawn() {
        XCTAssertEqual(shadowed(size: 10, radius: 80).passes.map(\.purpose).first, .shadowSource)
        XCTAssertEqual(shadowed(size: 10, radius: 100).passes.map(\.purpose), [.canvas])
        XCTAssertEqual(shadowed(size: 50, radius: 1e308).passes.map(\.purpose), [.canvas])
    }

    /// A `shadowRadius` of 1e308 is drawn as `maximumDrawnShadowRadius`, 10^6 points, which a
    /// 10^6-point layer's shadow shows at (its peak: (10^6 / (10^6·√(2π)))² = 0.16). The blur
    /// reaches 3 x 10^6 + 1 points, so the pass is the bounds with the 8,192 points kept around
    /// them (-8,192…1,008,192: 1,016,384 points), at the scale that makes sigma 64 pixels
    /// (64 / 10^6): ⌈1,016,384 x 6.4e-5⌉ = ⌈65.05⌉ = 66 pixels a side. Sigma 64 > 32 blurs at an
    /// eighth: ⌈66 / 8⌉ = 9 pixels.
    func testHugeShadowRadiusIsDrawnAtTheMaximum() {
        XCTAssertEqual(LayerProperties.maximumDrawnShadowRadius, 1e6)
        let list = shadowed(size: 1e6, radius: 1e308)
        XCTAssertEqual(list.passes.map(\.purpose), [.shadowSource, .shadowDownsample, .shadowBlur, .shadowBlur, .canvas])
        XCTAssertEqual(list.passes.map { [$0.width, $0.height] }, [[66, 66], [9, 9], [9, 9], [9, 9], [100, 100]])
        if case let .downsample(_, factor) = list.passes[1].content { XCTAssertEqual(factor, 8) } else { XCTFail("a downsample") }
    }

    /// A `rasterizationScale` of 1e308 rasterizes at the largest pass (`maxPassSize` pixels for
    /// the 50 points), within the memory budget, like any pass too big for it.
    func testHugeRasterizationScaleFitsThePassLimit() {
        let list = Compositor.displayList(root: layer {
            $0.shouldRasterize = true
            $0.rasterizationScale = 1e308
        }.snapshot(), width: 100, height: 100, scale: 1, background: nil)
        XCTAssertEqual(list.passes.map(\.purpose), [.rasterized, .canvas])
        let pass = list.passes[0]
        XCTAssertEqual(pass.width, pass.height)
        XCTAssertLessThanOrEqual(pass.width, Compositor.maxPassSize)
        XCTAssertLessThanOrEqual(list.peakOffscreenBytes, Compositor.offscreenMemoryBudget)
        XCTAssertGreaterThan(pass.width, 1000, "not shrunk to nothing")
    }
}
