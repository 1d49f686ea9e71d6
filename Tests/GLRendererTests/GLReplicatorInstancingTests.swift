import CPURenderer
import Foundation
import GLRenderer
import LayerCompositor
import LayerKitCore
import LayerKitScene
import LayerKitTestSupport
import XCTest

/// A replicator's copies on GL: where the compositor marks them as a replicated run, GL records
/// the first copy's quads once and draws every copy from them with one instanced draw (the
/// copy's pixel map and colour factor from a per-copy record); elsewhere the copies are drawn
/// quad by quad. Either way the pixels are the CPU reference's, within the standard budget.
final class GLReplicatorInstancingTests: XCTestCase {
    private func replicator(_ frame: CGRect, count: Int, _ t: CATransform3D = CATransform3DIdentity,
                            _ sublayers: [CALayer]) -> CAReplicatorLayer {
        let r = CAReplicatorLayer()
        r.frame = frame
        r.instanceCount = count
        r.instanceTransform = t
        for s in sublayers { r.addSublayer(s) }
        return r
    }

    private func container(_ frame: CGRect, _ sublayers: [CALayer]) -> CALayer {
        let l = CALayer()
        l.frame = frame
        for s in sublayers { l.addSublayer(s) }
        return l
    }

    private func rotationY(_ degrees: Double) -> CATransform3D { CATransform3DMakeRotation(CGFloat(degrees * .pi / 180), 0, 1, 0) }

    /// A card: a rounded, bordered background and a sublayer, three quads.
    private func card() -> CALayer {
        let card = solidLayer(CGRect(x: 0, y: 0, width: 12, height: 8), rgb(30, 120, 230), name: "card")
        card.cornerRadius = 2
        card.borderWidth = 1
        card.borderColor = CGColor(red: 0, green: 0, blue: 0, alpha: 0.8)
        card.addSublayer(solidLayer(CGRect(x: 3, y: 2, width: 4, height: 3), rgb(250, 220, 40), name: "pip"))
        return card
    }

    /// n copies of the card on a grid (rows of 40, 14 apart, the instance transform a step to
    /// the right; every 40th copy wraps with a nested replicator), over a background layer.
    private func grid(_ n: Int) -> CALayer {
        let row = replicator(CGRect(x: 0, y: 0, width: 560, height: 10), count: 40, CATransform3DMakeTranslation(14, 0, 0), [card()])
        let rows = replicator(CGRect(x: 4, y: 4, width: 560, height: 400), count: n / 40, CATransform3DMakeTranslation(0, 10, 0), [row])
        rows.instanceAlphaOffset = -0.02
        let root = container(CGRect(x: 0, y: 0, width: 570, height: 260), [rows])
        root.backgroundColor = CGColor(red: 1, green: 1, blue: 1, alpha: 1)
        return root
    }

    /// 1,000 copies of a three-quad card cost what 40 do: the card's 3 records and the
    /// background's, and the same draws (the background's batch, then the run's one draw);
    /// the list still holds 3,001 quads, and the pixels are the reference's. The data texture
    /// holds 4 records of 26 texels and a copy record of 4 texels per copy: 104 + 4n texels.
    func testAThousandCopiesRecordOneCopyInOneDraw() throws {
        let h = try GLHarness()
        var draws: [Int] = []
        for n in [40, 1000] {
            let list = displayList(grid(n), width: 570, height: 260, scale: 1, background: nil)
            XCTAssertEqual(list.canvas.quads.count, 1 + 3 * n)
            let (d, _, _) = try compareBackends(list, gl: h.renderer, name: "replicator-grid-\(n)")
            XCTAssertLessThanOrEqual(d.fraction, GLBudget.standard.fraction, "\(n) copies: \(d)")
            XCTAssertEqual(h.renderer.lastFrameStats.recordsWritten, 1 + 3, "\(n) copies")
            XCTAssertEqual(GLRenderer.recordTexels(for: list), 104 + 4 * n, "\(n) copies")
            draws.append(h.renderer.lastFrameStats.drawCalls)
        }
        XCTAssertEqual(draws, [2, 2])
    }

    /// Replicator scenes, instanced and not, against the reference at 1x and 2x.
    func testReplicatorScenesMatchTheReference() throws {
        let h = try GLHarness()
        var lines = [tableHeader]
        var runsSeen: [String: Bool] = [:]
        for (name, root, w, hgt) in try trees() {
            for s in [1.0, 2.0] {
                let list = displayList(root, width: w, height: hgt, scale: s, background: rgb(240, 240, 240))
                runsSeen[name] = list.passes.contains { $0.quads.contains { $0.copyRun != nil } }
                if name == "runs-in-passes" {
                    XCTAssertEqual(list.passes.map { $0.quads.filter { $0.copyRun != nil }.count }.reduce(0, +), 3, "a run in each holder's pass and one on the canvas")
                }
                let (d, _, _) = try compareBackends(list, gl: h.renderer, name: "\(name)@\(Int(s))x")
                lines.append(tableRow(name, s, d))
                XCTAssertLessThanOrEqual(d.fraction, GLBudget.standard.fraction, "\(name) at scale \(s): \(d)")
            }
        }
        print(lines.joined(separator: "\n"))
        // Which of them GL drew instanced: the cases in `trees` say why.
        XCTAssertEqual(runsSeen, ["ring-6.8": true, "nested-clamped": true, "contents-plain": true, "contents-tinted": false,
                                  "perspective-tilted": false, "perspective-turned": true, "preserves-depth": false,
                                  "masked-copies": false, "runs-in-passes": true])
    }

    /// The same scenes on OpenGL ES 3 (half-planes in the fragment stage, the copy's map and
    /// colour in flat varyings as on desktop GL).
    func testReplicatorScenesMatchTheReferenceOnGLES() throws {
        let context = try EGLHeadlessContext(api: .openGLES3)
        let renderer = try GLRenderer()
        XCTAssertTrue(renderer.isES)
        for (name, root, w, hgt) in try trees() {
            let list = displayList(root, width: w, height: hgt, scale: 1, background: rgb(240, 240, 240))
            let (d, _, _) = try compareBackends(list, gl: renderer, name: "es-\(name)")
            XCTAssertLessThanOrEqual(d.fraction, GLBudget.standard.fraction, "\(name): \(d)")
        }
        withExtendedLifetime(context) {}
    }

    /// Replicator trees, each exercising one case of the run or its fallback.
    private func trees() throws -> [(String, CALayer, Double, Double)] {
        var trees: [(String, CALayer, Double, Double)] = []

        // Listing 6.8, the ring, with a rotated, antialiased square.
        let ring = try Scene(contentsOfFile: examplesDirectory.appendingPathComponent("seeds/6.8-replicator-ring.json").path)
        trees.append(("ring-6.8", ring.root, 500, 640))

        // Nested, with colour offsets that clamp (red −0.3 reaches 0 at the fourth copy) and
        // an alpha offset: translucent copies overlapping.
        do {
            let dot = solidLayer(CGRect(x: 0, y: 0, width: 30, height: 22), rgb(255, 200, 120), name: "dot")
            dot.cornerRadius = 6
            dot.transform = CATransform3DMakeRotation(0.2, 0, 0, 1)
            let inner = replicator(CGRect(x: 0, y: 0, width: 200, height: 200), count: 6, CATransform3DMakeTranslation(17.5, 3.25, 0), [dot])
            inner.instanceRedOffset = -0.3
            let outer = replicator(CGRect(x: 10, y: 10, width: 200, height: 200), count: 5,
                                   CATransform3DRotate(CATransform3DMakeTranslation(4, 30, 0), 0.1, 0, 0, 1), [inner])
            outer.instanceAlphaOffset = -0.15
            outer.instanceColor = CGColor(red: 0.9, green: 1, blue: 0.8, alpha: 1)
            trees.append(("nested-clamped", container(CGRect(x: 0, y: 0, width: 240, height: 220), [outer]), 240, 220))
        }

        // Contents: untinted (one image, instanced) and tinted (an image per copy, not). The
        // step is not (27, 2): then copy 2's top edge falls on the pixel centre y = 17.5 at 1x,
        // which the CPU counts in and GL's float composition of the copy's map can put out
        // (a row of pixels; docs/architecture.md says so).
        
        for tinted in [false, true] {
            var pixels: [UInt8] = []
            for y in 0..<8 { for x in 0..<8 { pixels += (x + y) % 2 == 0 ? [200, 40, 40, 255] : [0, 60, 0, 120] } }
            let pic = CALayer()
            pic.frame = CGRect(x: 0, y: 0, width: 24, height: 24)
            pic.contents = CGImage(bitmap: Bitmap(width: 8, height: 8, pixels: pixels))
            pic.magnificationFilter = .linear
            let r = replicator(CGRect(x: 8, y: 8, width: 200, height: 60), count: 7, CATransform3DScale(CATransform3DMakeTranslation(27, 2.3, 0), 0.9, 0.9, 1), [pic])
            if tinted { r.instanceGreenOffset = -0.15 }
            trees.append(("contents-\(tinted ? "tinted" : "plain")", container(CGRect(x: 0, y: 0, width: 220, height: 80), [r]), 220, 80))
        }

        // Perspective: the whole replicator tilted, its copies a step apart in its plane, which
        // perspective makes projective images of copy 0 in pixels (not instanced); and copies
        // turned about y (and 10 nearer each) in an untilted replicator under perspective: it
        // flattens them into its plane, orthographically, so they are affine images of copy 0
        // (instanced).
        for turned in [false, true] {
            let sq = solidLayer(CGRect(x: 70, y: 40, width: 40, height: 30), rgb(60, 160, 90), name: "sq")
            sq.borderWidth = 2
            sq.borderColor = CGColor(red: 0, green: 0, blue: 0, alpha: 1)
            let t = turned ? CATransform3DRotate(CATransform3DMakeTranslation(0, 0, 10), 0.4, 0, 1, 0) : CATransform3DMakeTranslation(0, 34, 0)
            let r = replicator(CGRect(x: 30, y: 10, width: 180, height: 180), count: 5, t, [sq])
            if !turned { r.transform = CATransform3DMakeRotation(0.5, 1, 0, 0) }
            var p = CATransform3DIdentity
            p.m34 = -1.0 / 400
            let parent = container(CGRect(x: 0, y: 0, width: 240, height: 200), [r])
            parent.sublayerTransform = p
            trees.append(("perspective-\(turned ? "turned" : "tilted")", parent, 240, 200))
        }

        // preservesDepth: copies turned about y, sorted in depth with a sibling crossing them.
        do {
            let sq = solidLayer(CGRect(x: 60, y: 40, width: 60, height: 40), rgb(200, 80, 80), name: "sq")
            let r = replicator(CGRect(x: 20, y: 20, width: 180, height: 120), count: 4, rotationY(40), [sq])
            r.preservesDepth = true
            let wall = solidLayer(CGRect(x: 20, y: 70, width: 200, height: 20), rgb(40, 40, 200), name: "wall")
            wall.transform = rotationY(-20)
            let scene = CATransformLayer()
            scene.frame = CGRect(x: 0, y: 0, width: 240, height: 160)
            scene.addSublayer(r)
            scene.addSublayer(wall)
            var p = CATransform3DIdentity
            p.m34 = -1.0 / 500
            let parent = container(CGRect(x: 0, y: 0, width: 240, height: 160), [scene])
            parent.sublayerTransform = p
            trees.append(("preserves-depth", parent, 240, 160))
        }

        // A mask in the copies (each copy its own passes).
        do {
            let dot = solidLayer(CGRect(x: 0, y: 0, width: 30, height: 30), rgb(90, 30, 160), name: "dot")
            let mask = CALayer()
            mask.frame = CGRect(x: 0, y: 0, width: 30, height: 30)
            mask.cornerRadius = 15
            mask.backgroundColor = CGColor(red: 0, green: 0, blue: 0, alpha: 1)
            dot.mask = mask
            let r = replicator(CGRect(x: 10, y: 10, width: 200, height: 40), count: 5, CATransform3DMakeTranslation(36, 0, 0), [dot])
            r.instanceBlueOffset = -0.2
            trees.append(("masked-copies", container(CGRect(x: 0, y: 0, width: 220, height: 60), [r]), 220, 60))
        }

        // Runs in offscreen passes: a replicator in a group-opacity layer with a shadow, after
        // another pass's run (records counted across passes), and one more run on the canvas.
        do {
            let group = container(CGRect(x: 0, y: 0, width: 240, height: 120), [])
            for (i, y) in [10.0, 60.0].enumerated() {
                let holder = container(CGRect(x: 5, y: y, width: 230, height: 50), [])
                holder.opacity = 0.7
                holder.shadowOpacity = 0.5
                holder.shadowRadius = 3
                let r = replicator(CGRect(x: 5, y: 5, width: 220, height: 40), count: 12 + i, CATransform3DMakeTranslation(16.5, 0.5, 0), [card()])
                r.instanceRedOffset = -0.05
                holder.addSublayer(r)
                group.addSublayer(holder)
            }
            group.addSublayer(replicator(CGRect(x: 10, y: 100, width: 220, height: 15), count: 9, CATransform3DMakeTranslation(20, 0, 0), [card()]))
            trees.append(("runs-in-passes", group, 240, 120))
        }

        return trees
    }

    /// instanceDelay with an animated sublayer, at 10.45 (copies 0 to 4 animating, 5 to 7
    /// before the animation): an opacity animation makes copies whose opacity is folded into
    /// their colour factor (a run); a scale animation copies that are copy 0 scaled in y,
    /// affine images of it (a run); a corner-radius animation copies of other shapes (no
    /// run). The reference's pixels each time.
    func testInstanceDelayWithAnAnimationMatchesTheReference() throws {
        let h = try GLHarness()
        for (key, instanced) in [("opacity", true), ("transform.scale.y", true), ("cornerRadius", false)] {
            let bar = solidLayer(CGRect(x: 0, y: 0, width: 16, height: 40), rgb(20, 140, 220), name: "bar")
            let r = replicator(CGRect(x: 10, y: 10, width: 200, height: 60), count: 8, CATransform3DMakeTranslation(22.25, 0, 0), [bar])
            r.instanceDelay = 0.1
            let a = CABasicAnimation(keyPath: key)
            (a.fromValue, a.toValue) = key == "cornerRadius" ? (0, 8) : (0.2, 1)
            a.beginTime = 10
            a.duration = 1
            bar.add(a, forKey: nil)
            let root = container(CGRect(x: 0, y: 0, width: 220, height: 80), [r])
            let list = Compositor.displayList(root: root.snapshot(atTime: 10.45), width: 220, height: 80, scale: 1,
                                              background: rgb(255, 255, 255))
            XCTAssertEqual(list.canvas.quads.contains { $0.copyRun != nil }, instanced, key)
            if key == "opacity" { XCTAssertEqual(Set(list.canvas.quads.map(\.opacity)).count, 6, "0.2 + 0.8 × (0.45, 0.35, …, 0.05) and the model's 1") }
            let (d, _, _) = try compareBackends(list, gl: h.renderer, name: "instance-delay-\(key)")
            XCTAssertLessThanOrEqual(d.fraction, GLBudget.standard.fraction, "\(key): \(d)")
        }
    }

    /// Frames that change a layer beside a run, over it, and the run itself (its count, its
    /// colour), damage-redrawn with the records patched or rebuilt, are byte for byte the full
    /// redraw of the same list; the damaged frames redraw less than the canvas.
    func testDamageAndChangedFramesEqualFullRedraws() throws {
        let h = try GLHarness()
        let full = try GLRenderer()
        full.tracksDamage = false
        let r = replicator(CGRect(x: 10, y: 10, width: 200, height: 40), count: 9, CATransform3DMakeTranslation(21.5, 0, 0), [card()])
        r.instanceBlueOffset = -0.1
        let mover = solidLayer(CGRect(x: 150, y: 80, width: 12, height: 12), rgb(200, 30, 30), name: "mover")
        let root = container(CGRect(x: 0, y: 0, width: 220, height: 110), [r, mover])
        let compositor = FrameCompositor()
        var damaged = 0
        let edits: [() -> Void] = [
            { mover.position.x -= 3 },                   // beside the run
            { mover.position = CGPoint(x: 60, y: 16) },  // over it: the run redrawn in the damage
            { mover.position.y += 1.5 },
            { r.instanceCount = 7 },                     // the run itself
            { r.instanceBlueOffset = -0.05 },
            { mover.position.x += 40 },
        ]
        _ = try h.renderer.render(compositor.displayList(root: root.snapshot(), width: 220, height: 110, scale: 1, background: nil))
        for (step, edit) in edits.enumerated() {
            CATransaction.begin()
            CATransaction.setDisableActions(true)
            edit()
            CATransaction.commit()
            let list = compositor.displayList(root: root.snapshot(), width: 220, height: 110, scale: 1, background: nil)
            XCTAssertTrue(list.canvas.quads.contains { $0.copyRun != nil }, "step \(step)")
            let gl = try h.renderer.render(list)
            if h.renderer.lastRedrawnPixels < 220 * 110 { damaged += 1 }
            XCTAssertTrue(gl == (try full.render(list)), "step \(step)")
        }
        XCTAssertGreaterThanOrEqual(damaged, 4)
    }
}
