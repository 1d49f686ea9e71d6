import Foundation
@testable import LayerKitScene
import XCTest
@testable import LayerKitCore

/// Trees far deeper than a thread's stack holds one recursion level per layer for: every walk
/// over the tree (hit testing, conversion, layout, snapshots and their comparison) continues on
/// a fresh stack when the current one runs low (`TreeRecursion`), so depth is no limit.
final class DeepTreeTests: XCTestCase {
    /// `depth` nested layers, each 100x100 at the origin of its superlayer; returns the root
    /// and the deepest.
    private func chain(_ depth: Int) -> (root: CALayer, deepest: CALayer) {
        let root = CALayer()
        root.frame = CGRect(x: 0, y: 0, width: 100, height: 100)
        var last = root
        for i in 1..<depth {
            let l = CALayer()
            l.frame = CGRect(x: 1, y: 0, width: 100, height: 100)
            l.name = "l\(i)"
            last.addSublayer(l)
            last = l
        }
        return (root, last)
    }

    /// Each level is 1 pt right of its superlayer, so the deepest layer's origin is at x = 9999
    /// in the root's space; (9999.5, 50) hits it, (10, 50) hits the layer at depth 11 (its own
    /// x range 10…110 starts there; deeper ones start further right).
    func testHitTestAndConvertThroughTenThousandLevels() {
        let (root, deepest) = chain(10_000)
        XCTAssertTrue(root.hitTest(CGPoint(x: 9999.5, y: 50)) === deepest)
        XCTAssertEqual(root.hitTest(CGPoint(x: 10, y: 50))?.name, "l10")
        XCTAssertEqual(deepest.convert(CGPoint(x: 9999.5, y: 50), from: root), CGPoint(x: 0.5, y: 50))
        XCTAssertEqual(root.convert(CGPoint.zero, from: deepest), CGPoint(x: 9999, y: 0))
    }

    func testSnapshotsAndLayoutOfTenThousandLevels() {
        let (root, deepest) = chain(10_000)
        deepest.setNeedsLayout()
        let first = root.snapshot()
        deepest.backgroundColor = CGColor(red: 1, green: 0, blue: 0, alpha: 1)
        let second = root.snapshot()
        XCTAssertFalse(first === second)
        XCTAssertNotEqual(first, second, "the comparison walks to the deepest level")
        deepest.backgroundColor = nil
        XCTAssertEqual(first, root.snapshot())
    }

    /// Runs `body` on a thread with a 512 KiB stack (Apple's secondary threads' size; Linux
    /// gives dispatch workers 8 MiB) and waits for it.
    ///
    /// The thread gives up the work (and what it captured) before it signals, and the result
    /// leaves the box here: a deep tree's last reference must never drop on the small stack,
    /// whose deinit chain one level per layer would overflow it. The thread object may outlive
    /// the test, and it used to free the tree there, crashing the next test now and then.
    private func onSmallStack<T>(_ body: @escaping () -> T) -> T {
        let box = WorkerResult<T>(), done = DispatchSemaphore(value: 0)
        box.work = body
        let thread = Thread {
            box.value = box.work?()
            box.work = nil
            done.signal()
        }
        thread.stackSize = 512 << 10
        thread.start()
        done.wait()
        defer { box.value = nil }
        return box.value!
    }

    /// On a 512 KiB stack the walk moves off it at once.
    func testDeepWalksFromASmallStack() {
        let (root, deepest) = chain(2000)
        nonisolated(unsafe) let tree = root
        let hit = onSmallStack { tree.hitTest(CGPoint(x: 1999.5, y: 50)) }
        XCTAssertTrue(hit === deepest)
    }

    /// A scene at the files' depth limit writes and reads back on a 512 KiB stack: the writer,
    /// the JSON text (2000 levels of nesting) and the reader all move to a fresh stack when
    /// theirs runs low.
    func testSceneAtTheDepthLimitWritesAndReadsOnASmallStack() throws {
        let (root, deepest) = chain(Scene.maximumDepth)
        deepest.name = "deepest"
        nonisolated(unsafe) let tree = root
        let result: Result<Scene, Error> = onSmallStack {
            Result {
                let data = try Scene(canvas: Canvas(width: 100, height: 100), root: tree).jsonData()
                return try Scene(data: data, baseDirectory: "/", fileName: "deep.json")
            }
        }
        let scene = try result.get()
        XCTAssertEqual(scene.hitTest(CGPoint(x: 999.5, y: 50))?.name, "deepest")
    }
}

/// What a dispatch worker hands back to the waiting test.
private final class WorkerResult<T>: @unchecked Sendable {
    var work: (() -> T)?
    var value: T?
}
