import CPURenderer
import Foundation
import GLRenderer
import LayerCompositor
import LayerKitCore
import LayerKitTestSupport
import XCTest

/// Offscreen passes nested 2, 3 and 10 deep, each of the three effects that make a pass alone
/// and all together: GL within 1/255 of the CPU reference at every pixel (at 1x; 3 deep at 2x
/// too, where the shadow's blur runs at another downsampling). Both
/// store a pass as RGBA8 and read it back for the next level, so a rounding that differs
/// between them (before the blend, in the blur, in the mask multiply) is fed back and grows
/// with depth; the budget is tighter than the standard one to see it at depth 2.
final class NestedPassEquivalenceTests: XCTestCase {
    static let budget = GLBudget(threshold: 1, fraction: 0)

    /// A 100x100 canvas whose level `i` (from 0) is a square of side 100 − 8·i centred in its
    /// superlayer, with its own colour and whichever of group opacity 0.9, a shadow (radius 10,
    /// offset (2, 3), opacity 0.5) and a mask (inset 3, corner radius 15) the flags ask for.
    /// Each level is smaller than the last, so every shadow falls on its superlayer and shows.
    static func chain(depth: Int, opacity: Bool, shadow: Bool, mask: Bool) -> CALayer {
        var levels: [CALayer] = []
        for i in 0..<depth {
            let side = 100 - 8 * CGFloat(i)
            let l = CALayer()
            l.bounds = CGRect(x: 0, y: 0, width: side, height: side)
            l.position = levels.last.map { CGPoint(x: $0.bounds.midX, y: $0.bounds.midY) } ?? CGPoint(x: 50, y: 50)
            l.backgroundColor = CGColor(red: CGFloat(37 * i % 256) / 255, green: CGFloat((90 + 71 * i) % 256) / 255,
                                        blue: CGFloat((200 + 113 * i) % 256) / 255, alpha: 1)
            if opacity { l.opacity = 0.9 }
            if shadow {
                l.shadowOpacity = 0.5
                l.shadowRadius = 10
                l.shadowOffset = CGSize(width: 2, height: 3)
            }
            if mask {
                let m = CALayer()
                m.frame = CGRect(x: 3, y: 3, width: side - 6, height: side - 6)
                m.cornerRadius = 15
                m.backgroundColor = .black
                l.mask = m
            }
            levels.last?.addSublayer(l)
            levels.append(l)
        }
        return levels[0]
    }

    func testNestedPassesAgreeAtEveryDepth() throws {
        let h = try GLHarness()
        let effects: [(String, Bool, Bool, Bool)] = [
            ("opacity", true, false, false), ("shadow", false, true, false), ("mask", false, false, true),
            ("opacity+shadow+mask", true, true, true),
        ]
        var lines = [tableHeader]
        for (name, opacity, shadow, mask) in effects {
            for depth in [2, 3, 10] {
                let root = Self.chain(depth: depth, opacity: opacity, shadow: shadow, mask: mask)
                for s in depth == 3 ? [1.0, 2.0] : [1.0] {
                    let list = displayList(root, width: 100, height: 100, scale: s, background: rgb(255, 255, 255))
                    XCTAssertGreaterThanOrEqual(list.passes.count, depth, "\(name) \(depth) deep makes a pass a level")
                    let label = "nested-\(name)-\(depth)@\(Int(s))x"
                    let (d, _, _) = try compareBackends(list, gl: h.renderer, name: label, budget: Self.budget)
                    lines.append(tableRow("\(name) \(depth) deep", s, d, budget: Self.budget))
                    XCTAssertLessThanOrEqual(d.max, Self.budget.threshold, "\(label): \(d)")
                }
            }
        }
        print(lines.joined(separator: "\n"))
    }
}
