import CPURenderer
import Foundation
import LayerCompositor
import LayerKitCore
import LayerKitTestSupport
import XCTest

/// The threading contract of `CALayer` (its doc comment and docs/layers.md, "Threads"): a tree is edited on one
/// thread at a time, `snapshot()` is taken where the edits are (or under the editors' lock), and
/// the snapshot is rendered on any other thread while the tree goes on changing. Run these under
/// `swift test --sanitize=thread` to have the race detector check the contract too.
final class SnapshotThreadingTests: XCTestCase {
    private static let frames = 120, side = 48

    /// The root's colour in frame `k`, exact in 8 bits.
    private static func color(_ k: Int) -> CGColor { rgb(k % 256, 255 - k % 256, 128) }

    /// One frame of edits: the root's colour, a transform, contents, and the tree's shape.
    private static func edit(_ root: CALayer, frame k: Int, images: [CGImage]) {
        root.backgroundColor = color(k)
        let spinner = root.sublayers![0]
        spinner.transform = CATransform3DMakeRotation(CGFloat(k) * 0.1, 0, 0, 1)
        spinner.contents = images[k % images.count]
        let extra = solidLayer(CGRect(x: 20 + k % 10, y: 20, width: 8, height: 8), rgb(0, 0, 255))
        root.addSublayer(extra)
        if root.sublayers!.count > 6 { root.sublayers![1].removeFromSuperlayer() }
        root.layoutIfNeeded()
    }

    private static func makeTree() -> (CALayer, [CGImage]) {
        let root = CALayer()
        root.frame = CGRect(x: 0, y: 0, width: side, height: side)
        let spinner = CALayer()
        spinner.frame = CGRect(x: 12, y: 12, width: 24, height: 24)
        root.addSublayer(spinner)
        return (root, [solidImage(width: 4, height: 4, rgb(255, 0, 0)), solidImage(width: 4, height: 4, rgb(0, 255, 0))])
    }

    /// Renders `snapshot` and checks that it shows frame `k`, whatever the tree looks like now.
    private static func problem(rendering snapshot: LayerSnapshot, frame k: Int) -> String? {
        let list = Compositor.displayList(root: snapshot, width: Double(side), height: Double(side), scale: 1, background: nil)
        guard let pixel = try? CPURenderer().render(list).rgba(1, 1) else { return "frame \(k): not rendered" }
        let expected = [UInt8(k % 256), UInt8(255 - k % 256), 128, 255]
        return pixel == expected ? nil : "frame \(k): corner is \(pixel), expected \(expected)"
    }

    /// The editing thread snapshots each frame and hands the snapshot to a render thread.
    func testSnapshotsTakenOnTheEditingThreadRenderOnAnother() {
        let (root, images) = Self.makeTree()
        let channel = Channel<(Int, LayerSnapshot)>()
        let problems = Locked<[String]>([])
        let renderer = Thread {
            while let (k, snapshot) = channel.receive() {
                if let p = Self.problem(rendering: snapshot, frame: k) { problems.update { $0.append(p) } }
            }
        }
        renderer.start()
        for k in 0..<Self.frames {
            Self.edit(root, frame: k, images: images)
            channel.send((k, root.snapshot()))
        }
        channel.close()
        channel.waitUntilDrained()
        XCTAssertEqual(problems.value, [])
    }

    /// The render thread snapshots under the lock the editing thread holds for every edit.
    func testSnapshotsTakenUnderTheEditorsLock() {
        let (root, images) = Self.makeTree()
        let lock = NSLock()
        let edited = Locked(-1)
        let problems = Locked<[String]>([])
        let done = DispatchSemaphore(value: 0)
        let renderer = Thread {
            var last = -1
            while last < Self.frames - 1 {
                lock.lock()
                let (k, snapshot) = (edited.value, root.snapshot())
                lock.unlock()
                if k < 0 || k == last { continue }
                last = k
                if let p = Self.problem(rendering: snapshot, frame: k) { problems.update { $0.append(p) } }
            }
            done.signal()
        }
        renderer.start()
        for k in 0..<Self.frames {
            lock.lock()
            Self.edit(root, frame: k, images: images)
            edited.update { $0 = k }
            lock.unlock()
        }
        done.wait()
        XCTAssertEqual(problems.value, [])
    }
}

/// A value shared between threads, read and written under a lock.
private final class Locked<Value>: @unchecked Sendable {
    private let lock = NSLock()
    private var stored: Value
    init(_ value: Value) { stored = value }
    var value: Value {
        lock.lock()
        defer { lock.unlock() }
        return stored
    }
    func update(_ body: (inout Value) -> Void) {
        lock.lock()
        body(&stored)
        lock.unlock()
    }
}

/// An unbounded queue from one sending thread to one receiving thread.
private final class Channel<Item>: @unchecked Sendable {
    private let condition = NSCondition()
    private var items: [Item] = []
    private var closed = false
    private var drained = false

    func send(_ item: Item) {
        condition.lock()
        items.append(item)
        condition.broadcast()
        condition.unlock()
    }

    func close() {
        condition.lock()
        closed = true
        condition.broadcast()
        condition.unlock()
    }

    /// The next item, waiting for one; `nil` once the channel is closed and empty.
    func receive() -> Item? {
        condition.lock()
        defer { condition.unlock() }
        while items.isEmpty && !closed { condition.wait() }
        if items.isEmpty {
            drained = true
            condition.broadcast()
            return nil
        }
        return items.removeFirst()
    }

    /// Waits until the receiver has seen the channel closed and empty.
    func waitUntilDrained() {
        condition.lock()
        while !drained { condition.wait() }
        condition.unlock()
    }
}
