import Foundation
import LayerKitCore

/// 120 layers drawn at random from a fixed seed, for the tests that check the CPU renderer's
/// rows against the per-pixel function: turned about any axis, in perspective or not,
/// stretched, rounded on some corners with either curve, bordered, with aliased or
/// antialiased edges, at fractional positions, intersecting (split into pieces with half-plane
/// clips).
func randomLayers(size: Int) -> CALayer {
    var seed: UInt64 = 0x9E37_79B9_7F4A_7C15
    func random() -> Double {
        seed = seed &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
        return Double(seed >> 11) / Double(1 << 53)
    }
    let root = CALayer()
    root.frame = CGRect(x: 0, y: 0, width: size, height: size)
    for _ in 0..<120 {
        let l = CALayer()
        l.bounds = CGRect(x: 0, y: 0, width: 6 + random() * 60, height: 6 + random() * 60)
        l.position = CGPoint(x: random() * Double(size), y: random() * Double(size))
        var t = CATransform3DMakeScale(0.4 + random() * 1.6, 0.4 + random() * 1.6, 1)
        t = CATransform3DConcat(t, CATransform3DMakeRotation(random() * 7, random() < 0.3 ? random() : 0,
                                                              random() < 0.3 ? random() : 0, 1))
        if random() < 0.3 { t.m34 = -1 / (150 + random() * 500) }
        l.transform = t
        l.backgroundColor = CGColor(red: 0.2, green: 0.5, blue: 0.8, alpha: random() < 0.5 ? 1 : 0.6)
        l.cornerRadius = random() < 0.6 ? random() * 20 : 0
        l.cornerCurve = random() < 0.3 ? .continuous : .circular
        if random() < 0.3 { l.maskedCorners = [.layerMaxXMinYCorner, .layerMinXMaxYCorner] }
        if random() < 0.4 {
            l.borderWidth = 0.5 + random() * 5
            l.borderColor = CGColor(red: 0, green: 0, blue: 0, alpha: 1)
        }
        l.allowsEdgeAntialiasing = random() < 0.3
        root.addSublayer(l)
    }
    return root
}
