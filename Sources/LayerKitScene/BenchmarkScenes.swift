import Foundation

/// MotionMark-style scenes made in code, the way `Examples/tools/gen_bench_scenes.py` makes its
/// files (same structure and distributions, LayerKit's own deterministic random numbers), so
/// `layerkit bench --ramp` and the benchmarks can grow a scene to any layer count.
public enum BenchmarkScene: String, CaseIterable, Sendable {
    /// Alpha-textured leaves, 2D rotations, a quarter tilted in 3D under perspective, varying opacity.
    case leaves
    /// Solid rounded squares with opacity in a grid.
    case multiply
    /// CATransformLayer cubes of six single-sided faces under a perspective sublayerTransform.
    case cubeGrid = "cube-grid"
    /// Offscreen passes nested `count` deep: a chain of 200x200 layers on a 200x200 canvas, each
    /// the only sublayer of the last, each with group opacity, a shadow of radius 20 and a mask,
    /// so every level renders its subtree offscreen, blurs it and masks it.
    case nested

    static let width: CGFloat = 1280, height: CGFloat = 720

    /// The largest `count` the benchmarks use: 100,000 layers, or for `nested` as many levels as
    /// a scene file may nest (each level's mask is one deeper), which `make` never exceeds.
    public var maximumCount: Int { self == .nested ? Scene.maximumDepth - 1 : 100_000 }

    /// A 1280x720 scene of about `count` layers (cube-grid: `count / 6` cubes of 6 faces), or
    /// for `nested` a 200x200 scene of `count` levels (each with a mask layer besides; at most
    /// `maximumCount`).
    public func make(count: Int) -> Scene {
        var rng = SplitMix(seed: UInt64(count) &* 2654435761 &+ UInt64(Self.allCases.firstIndex(of: self)!))
        let root = CALayer()
        root.name = "root"
        root.bounds = CGRect(x: 0, y: 0, width: Self.width, height: Self.height)
        root.position = CGPoint(x: Self.width / 2, y: Self.height / 2)
        var background = CGColor.white
        switch self {
        case .nested:
            return Self.nestedPasses(depth: count)
        case .leaves:
            let leaf = Self.leafImage
            for i in 0..<count {
                let l = CALayer()
                l.name = "leaf\(i)"
                let s = rng.uniform(24, 96)
                l.bounds = CGRect(x: 0, y: 0, width: s, height: s)
                l.position = CGPoint(x: rng.uniform(0, Self.width), y: rng.uniform(0, Self.height))
                var t = CATransform3DMakeRotation(rng.uniform(0, 360) * .pi / 180, 0, 0, 1)
                if i % 4 == 0 {
                    var p = CATransform3DIdentity
                    p.m34 = -1.0 / 800
                    t = t.concatenating(CATransform3DMakeRotation(rng.uniform(-60, 60) * .pi / 180, 0, 1, 0)).concatenating(p)
                }
                l.transform = t
                l.opacity = Float(rng.uniform(0.5, 1))
                l.contents = leaf
                root.addSublayer(l)
            }
        case .multiply:
            background = CGColor(gray: 0x20 / 255.0, alpha: 1)
            let (cols, cw, ch) = Self.grid(count)
            let s = 0.8 * min(cw, ch)
            for i in 0..<count {
                let l = CALayer()
                l.name = "sq\(i)"
                l.bounds = CGRect(x: 0, y: 0, width: s, height: s)
                l.position = CGPoint(x: (CGFloat(i % cols) + 0.5) * cw, y: (CGFloat(i / cols) + 0.5) * ch)
                l.transform = CATransform3DMakeRotation(rng.uniform(0, 90) * .pi / 180, 0, 0, 1)
                l.backgroundColor = rng.color()
                l.cornerRadius = s * 0.2
                l.opacity = Float(rng.uniform(0.3, 1))
                root.addSublayer(l)
            }
        case .cubeGrid:
            var p = CATransform3DIdentity
            p.m34 = -1.0 / 1000
            root.sublayerTransform = p
            let n = max(1, count / 6)
            let (cols, cw, ch) = Self.grid(n)
            let size = 0.5 * min(cw, ch), h = size / 2
            let faces: [CATransform3D] = [
                CATransform3DMakeTranslation(0, 0, h),
                CATransform3DMakeRotation(.pi / 2, 0, 1, 0).concatenating(CATransform3DMakeTranslation(h, 0, 0)),
                CATransform3DMakeRotation(.pi / 2, 1, 0, 0).concatenating(CATransform3DMakeTranslation(0, -h, 0)),
                CATransform3DMakeRotation(-.pi / 2, 1, 0, 0).concatenating(CATransform3DMakeTranslation(0, h, 0)),
                CATransform3DMakeRotation(-.pi / 2, 0, 1, 0).concatenating(CATransform3DMakeTranslation(-h, 0, 0)),
                CATransform3DMakeRotation(.pi, 0, 1, 0).concatenating(CATransform3DMakeTranslation(0, 0, -h)),
            ]
            for i in 0..<n {
                let cube = CATransformLayer()
                cube.name = "cube\(i)"
                cube.bounds = CGRect(x: 0, y: 0, width: size, height: size)
                cube.position = CGPoint(x: (CGFloat(i % cols) + 0.5) * cw, y: (CGFloat(i / cols) + 0.5) * ch)
                cube.transform = CATransform3DMakeRotation(rng.uniform(0, 360) * .pi / 180, 0, 1, 0)
                    .concatenating(CATransform3DMakeRotation(rng.uniform(0, 360) * .pi / 180, 1, 0, 0))
                for (k, f) in faces.enumerated() {
                    let face = CALayer()
                    face.name = "cube\(i).f\(k + 1)"
                    face.bounds = cube.bounds
                    face.position = CGPoint(x: h, y: h)
                    face.transform = f
                    face.backgroundColor = rng.color()
                    face.borderWidth = 1
                    face.isDoubleSided = false
                    cube.addSublayer(face)
                }
                root.addSublayer(cube)
            }
        }
        return Scene(canvas: Canvas(width: Self.width, height: Self.height, scale: 1, background: background), root: root)
    }

    /// `nested`: level `i` (from 0) is a 200x200 layer filling its superlayer, with a colour,
    /// opacity 0.9, a black shadow (radius 20, offset (4, 6), opacity 0.5) and a mask: a
    /// square with corners of radius 60, inset by 10 points.
    static func nestedPasses(depth: Int) -> Scene {
        let side: CGFloat = 200
        var rng = SplitMix(seed: UInt64(max(depth, 0)) &* 2654435761 &+ UInt64(Self.allCases.firstIndex(of: .nested)!))
        var root: CALayer?
        var parent: CALayer?
        for i in 0..<min(max(depth, 1), Self.nested.maximumCount) {
            let l = CALayer()
            l.name = "level\(i)"
            l.bounds = CGRect(x: 0, y: 0, width: side, height: side)
            l.position = CGPoint(x: side / 2, y: side / 2)
            l.backgroundColor = rng.color()
            l.opacity = 0.9
            l.shadowOpacity = 0.5
            l.shadowRadius = 20
            l.shadowOffset = CGSize(width: 4, height: 6)
            let mask = CALayer()
            mask.name = "level\(i) mask"
            mask.frame = CGRect(x: 10, y: 10, width: side - 20, height: side - 20)
            mask.cornerRadius = 60
            mask.backgroundColor = .black
            l.mask = mask
            if let parent { parent.addSublayer(l) } else { root = l }
            parent = l
        }
        return Scene(canvas: Canvas(width: side, height: side, scale: 1, background: .white), root: root!)
    }

    private static func grid(_ n: Int) -> (cols: Int, cw: CGFloat, ch: CGFloat) {
        let cols = max(1, Int((Double(n) * Double(width / height)).squareRoot()))
        let rows = (n + cols - 1) / cols
        return (cols, width / CGFloat(cols), height / CGFloat(rows))
    }

    /// The generator's 64x64 leaf: an ellipse with a vein, transparent outside.
    public static let leafImage: CGImage = {
        let n = 64
        var b = Bitmap(width: n, height: n)
        for y in 0..<n {
            for x in 0..<n {
                let u = (Double(x) + 0.5) / Double(n) * 2 - 1, v = (Double(y) + 0.5) / Double(n) * 2 - 1
                let r = (u / 0.55) * (u / 0.55) + (v / 0.95) * (v / 0.95)
                guard r <= 1 else { continue }
                let px: [Int] = abs(u) < 0.04 ? [40, 90, 30] : [60 + Int(60 * (v + 1)), Int(120 + 100 * (1 - r)), 40]
                let i = (y * n + x) * 4
                b.pixels[i] = UInt8(px[0])
                b.pixels[i + 1] = UInt8(px[1])
                b.pixels[i + 2] = UInt8(px[2])
                b.pixels[i + 3] = 255
            }
        }
        return CGImage(bitmap: b, source: "leaf")
    }()
}

/// A small, fast, deterministic generator (SplitMix64), so generated scenes never change.
struct SplitMix {
    var state: UInt64
    init(seed: UInt64) { state = seed }
    mutating func next() -> UInt64 {
        state &+= 0x9E3779B97F4A7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58476D1CE4E5B9
        z = (z ^ (z >> 27)) &* 0x94D049BB133111EB
        return z ^ (z >> 31)
    }
    mutating func uniform(_ lo: CGFloat, _ hi: CGFloat) -> CGFloat {
        lo + (hi - lo) * CGFloat(Double(next() >> 11) / Double(1 << 53))
    }
    mutating func color() -> CGColor {
        CGColor(red: uniform(0, 1), green: uniform(0, 1), blue: uniform(0, 1), alpha: 1)
    }
}
