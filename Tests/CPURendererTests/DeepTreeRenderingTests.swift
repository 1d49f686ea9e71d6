import CPURenderer
import LayerCompositor
import LayerKitCore
import LayerKitTestSupport
import XCTest

/// The compositor walks a tree 10,000 levels deep (ten times the scene files' limit) without
/// overflowing the stack: its recursion continues on a fresh stack when the current one runs low.
final class DeepTreeRenderingTests: XCTestCase {
    func testTenThousandLevelsComposeAndRender() throws {
        let root = CALayer()
        root.frame = CGRect(x: 0, y: 0, width: 20, height: 20)
        var last = root
        for _ in 1..<10_000 {
            let l = CALayer()
            l.frame = CGRect(x: 0, y: 0, width: 20, height: 20)
            last.addSublayer(l)
            last = l
        }
        last.backgroundColor = rgb(0, 255, 0)
        last.opacity = 0.5  // one quad: no group pass, half green
        let list = displayList(root, width: 20, height: 20)
        XCTAssertEqual(list.passes.count, 1)
        XCTAssertEqual(try CPURenderer().render(list).rgba(10, 10), [0, 128, 0, 128])
    }
}
