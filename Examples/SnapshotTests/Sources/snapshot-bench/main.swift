// The cost of snapshot assertions (BENCHMARKS.md, "Snapshot assertions"): 200 assertions of
// a 400x400 tree against references recorded by a first pass, timed as a suite, five times;
// wall time and the process's CPU time (all threads: the CPU renderer draws bands in parallel),
// which a busy machine disturbs less.
//   swift run -c release --package-path Examples/SnapshotTests snapshot-bench
import Badge
import Foundation
import LayerKitTesting
import QuartzCore

/// A 400x400 screen: a header with text, 20 rounded, bordered cards in a grid, a badge.
func screen(_ variant: Int) -> CALayer {
    let root = CALayer()
    root.frame = CGRect(x: 0, y: 0, width: 400, height: 400)
    root.backgroundColor = CGColor(red: 0.95, green: 0.95, blue: 0.96, alpha: 1)
    let title = CATextLayer()
    title.frame = CGRect(x: 16, y: 12, width: 300, height: 24)
    title.string = "Inbox \(variant)"
    title.fontSize = 18
    title.foregroundColor = CGColor(red: 0.1, green: 0.1, blue: 0.1, alpha: 1)
    root.addSublayer(title)
    for i in 0..<20 {
        let card = CALayer()
        card.frame = CGRect(x: 16 + Double(i % 4) * 94, y: 50 + Double(i / 4) * 68, width: 86, height: 60)
        card.backgroundColor = CGColor(red: 1, green: 1, blue: 1, alpha: 1)
        card.cornerRadius = 8
        card.borderWidth = 1
        card.borderColor = CGColor(red: 0.8, green: 0.8, blue: 0.85, alpha: 1)
        root.addSublayer(card)
    }
    let badge = makeBadge(count: variant)
    badge.position = CGPoint(x: 370, y: 30)
    root.addSublayer(badge)
    return root
}

/// Wall and CPU milliseconds of `body`.
func timed(_ body: () throws -> Void) rethrows -> (wall: Double, cpu: Double) {
    func cpuNow() -> Double {
        var t = timespec()
        clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &t)
        return Double(t.tv_sec) * 1e3 + Double(t.tv_nsec) / 1e6
    }
    let (wall, cpu) = (DispatchTime.now().uptimeNanoseconds, cpuNow())
    try body()
    return (Double(DispatchTime.now().uptimeNanoseconds - wall) / 1e6, cpuNow() - cpu)
}

/// `label: median wall … ms (… ms each), CPU … ms (… ms each)` over the runs.
func report(_ label: String, _ runs: [(wall: Double, cpu: Double)], _ n: Int) {
    let wall = runs.map(\.wall).sorted()[runs.count / 2], cpu = runs.map(\.cpu).sorted()[runs.count / 2]
    print(String(format: "%@, median of %d runs: wall %.1f ms (%.2f ms each), CPU %.1f ms (%.2f ms each); runs' wall %@",
                 label, runs.count, wall, wall / Double(n), cpu, cpu / Double(n),
                 runs.map { String(format: "%.0f", $0.wall) }.joined(separator: " ")))
}

let folder = NSTemporaryDirectory() + "snapshot-bench-\(getpid())"
defer { try? FileManager.default.removeItem(atPath: folder) }
let count = 200
// Ten different trees, each asserted 20 times under its own name.
let trees = (0..<10).map(screen)
for (i, tree) in trees.enumerated() {
    _ = verifySnapshot(of: tree, as: .image, named: "screen\(i)", snapshotDirectory: folder, testName: "bench")
}
let assertions = try (0..<5).map { _ in
    try timed {
        for k in 0..<count {
            if let failure = verifySnapshot(of: trees[k % 10], as: .image, named: "screen\(k % 10)", snapshotDirectory: folder,
                                            testName: "bench") {
                print("unexpected failure: \(failure)")
                exit(1)
            }
        }
    }
}
report("\(count) assertions", assertions, count)

// The part of that which is drawing the trees, as any test of them would: snapshot, display
// list and the CPU reference renderer, the same 200 times.
let drawing = try (0..<5).map { _ in
    try timed {
        for k in 0..<count {
            _ = try CPURenderer().render(Compositor.displayList(root: trees[k % 10].snapshot(), width: 400, height: 400, scale: 1,
                                                                background: nil))
        }
    }
}
report("drawing alone", drawing, count)
