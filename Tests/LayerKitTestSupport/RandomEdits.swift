import Foundation
import LayerKitCore

/// A fixed-seed generator (SplitMix64), so that a randomized test draws the same cases on
/// every run and a failure can be replayed.
public struct SeededGenerator: RandomNumberGenerator {
    private var state: UInt64

    /// A generator whose sequence is fixed by `seed`.
    public init(seed: UInt64) { state = seed }

    /// The next 64 random bits.
    public mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}

/// A random tree of `count` solid rectangles on a canvas of `size`, some of them transform
/// layers and some holding others, for tests that edit a tree at random and compare an
/// incremental result with a full one. Every layer is named by its index.
public func randomTree(count: Int, size: CGSize, using g: inout SeededGenerator) -> CALayer {
    let root = CALayer()
    root.frame = CGRect(origin: .zero, size: size)
    var parents = [root]
    for i in 0..<count {
        let l = i % 7 == 3 ? CATransformLayer() : CALayer()
        l.name = "\(i)"
        l.frame = CGRect(x: .random(in: -10...size.width - 10, using: &g), y: .random(in: -10...size.height - 10, using: &g),
                         width: .random(in: 4...40, using: &g), height: .random(in: 4...40, using: &g))
        l.backgroundColor = randomColor(using: &g)
        parents.randomElement(using: &g)!.addSublayer(l)
        if i % 3 == 0 || l is CATransformLayer { parents.append(l) }
    }
    return root
}

/// Two 10-point squares at opposite corners of a 200 x 200 canvas, red `a` at (10, 10) and
/// blue `b` at (180, 180), for damage tests: a box spanning both covers most of the canvas.
public func twoSquaresFarApart() -> (root: CALayer, a: CALayer, b: CALayer) {
    let root = CALayer()
    root.frame = CGRect(x: 0, y: 0, width: 200, height: 200)
    let a = solidLayer(CGRect(x: 10, y: 10, width: 10, height: 10), rgb(255, 0, 0))
    let b = solidLayer(CGRect(x: 180, y: 180, width: 10, height: 10), rgb(0, 0, 255))
    root.addSublayer(a)
    root.addSublayer(b)
    return (root, a, b)
}

/// One random edit of a layer under `root` (not `root` itself): a move, a rotation in or out
/// of the plane, a colour, opacity, zPosition, visibility, corner and border, clipping, shadow
/// or mask change, a new sublayer, or a removal.
public func randomEdit(_ root: CALayer, using g: inout SeededGenerator) {
    var all: [CALayer] = []
    func collect(_ l: CALayer) {
        for s in l.sublayers ?? [] {
            all.append(s)
            collect(s)
        }
    }
    collect(root)
    guard let l = all.randomElement(using: &g) else { return }
    switch Int.random(in: 0..<13, using: &g) {
    case 0: l.position.x += .random(in: -20...20, using: &g)
    case 1: l.transform = CATransform3DRotate(l.transform, .random(in: -1...1, using: &g), 0, 0, 1)
    case 2:
        var t = CATransform3DIdentity
        t.m34 = -1 / 300
        l.transform = CATransform3DRotate(t, .random(in: -1.2...1.2, using: &g), 0, 1, 0)
    case 3: l.backgroundColor = randomColor(using: &g)
    case 4: l.opacity = .random(in: 0...1, using: &g)
    case 5: l.zPosition = CGFloat.random(in: -5...5, using: &g).rounded()
    case 6: l.isHidden.toggle()
    case 7:
        l.cornerRadius = .random(in: 0...8, using: &g)
        l.borderWidth = .random(in: 0...3, using: &g)
        l.borderColor = randomColor(using: &g)
    case 8: l.masksToBounds.toggle()
    case 9:
        l.shadowOpacity = l.shadowOpacity > 0 ? 0 : 0.6
        l.shadowRadius = 3
    case 10:
        let m = CALayer()
        m.frame = l.bounds.insetBy(dx: l.bounds.width / 4, dy: 0)
        m.backgroundColor = CGColor(red: 0, green: 0, blue: 0, alpha: 1)
        l.mask = l.mask == nil ? m : nil
    case 11:
        let s = CALayer()
        s.frame = CGRect(x: .random(in: -5...20, using: &g), y: .random(in: -5...20, using: &g), width: 12, height: 9)
        s.backgroundColor = randomColor(using: &g)
        l.addSublayer(s)
    default: l.removeFromSuperlayer()
    }
}

private func randomColor(using g: inout SeededGenerator) -> CGColor {
    CGColor(red: .random(in: 0...1, using: &g), green: .random(in: 0...1, using: &g), blue: .random(in: 0...1, using: &g),
            alpha: [1, 1, 0.5].randomElement(using: &g)!)
}
