import Foundation
import LayerKitCore
import LayerKitTestSupport
import Testing

/// Every output of the command line is written whole or not at all: a write that fails leaves
/// the file that was there as it was and removes nothing the command did not create; a device
/// or FIFO is written in place and never removed; an output that cannot be written is one
/// sentence, exit 2.
@Suite struct OutputWriteTests {
    private let temporary = TemporaryDirectories()

    /// A 480 x 400 scene with shadows and an image: its PNG is about 15 KB, its trace over 2 KB.
    let scene = examplesDirectory.appendingPathComponent("seeds/4.x-shadow.json").path

    /// Two 128 x 128 PNGs for `diff` whose red channels differ by 3...34 at random (a linear
    /// congruential generator's): heat map reds 140...255 in noise, over 2 KiB as a PNG.
    private func differingPNGs(in dir: URL) throws -> (String, String) {
        let (a, b) = (dir.appendingPathComponent("a.png").path, dir.appendingPathComponent("b.png").path)
        var state: UInt32 = 1
        let first = Array([[UInt8]](repeating: [100, 100, 100, 255], count: 128 * 128).joined())
        var second = first
        for i in 0..<128 * 128 {
            state = state &* 1_664_525 &+ 1_013_904_223
            second[i * 4] = 103 + UInt8(state >> 27)
        }
        let (firstImage, secondImage) = (Bitmap(width: 128, height: 128, pixels: first), Bitmap(width: 128, height: 128, pixels: second))
        try firstImage.writePNG(to: a)
        try secondImage.writePNG(to: b)
        return (a, b)
    }

    /// The issue's case: a PNG, a heat map or a trace that /dev/full refuses (ENOSPC) is exit 2
    /// naming the option and the reason, and /dev/full is still the device afterwards (the
    /// PNG writer used to remove whatever path it failed to write: as root, the device node).
    @Test(.enabled(if: fileType("/dev/full") == S_IFCHR, "no /dev/full here (testFIFOIsWrittenInPlace covers devices)"))
    func testAFullDeviceIsWrittenInPlaceAndNeverRemoved() throws {
        let dir = try temporary.directory()
        let (a, b) = try differingPNGs(in: dir)
        let runs: [([String], String)] = [
            (["render", scene, "--backend", "cpu", "-o", "/dev/full"], "-o"),
            (["diff", a, b, "--heatmap", "/dev/full"], "--heatmap"),
            (["bench", scene, "--backend", "cpu", "--frames", "1", "--warmup", "0", "--trace", "/dev/full"], "--trace"),
        ]
        for (arguments, option) in runs {
            let run = try runLayerKit(arguments)
            expectEqual(run.status, 2, "\(arguments)")
            expectEqual(run.stderrLines.last, "layerkit: cannot write \(option) /dev/full: No space left on device")
            expectEqual(fileType("/dev/full"), S_IFCHR, "/dev/full is still a character device after \(option)")
        }
    }

    /// A FIFO is written in place (its reader gets the PNG) and stays a FIFO; nothing else is
    /// created beside it.
    @Test func testFIFOIsWrittenInPlace() throws {
        let dir = try temporary.directory()
        let fifo = dir.appendingPathComponent("pipe.png").path
        expectEqual(mkfifo(fifo, 0o600), 0)
        final class Received: @unchecked Sendable { var data = Data() }
        let received = Received(), done = DispatchSemaphore(value: 0)
        DispatchQueue.global().async {
            // Opening blocks until layerkit opens the FIFO for writing; reading ends at its close.
            if let handle = FileHandle(forReadingAtPath: fifo) { received.data = handle.readDataToEndOfFile() }
            done.signal()
        }
        let run = try runLayerKit(["render", scene, "--backend", "cpu", "-o", fifo])
        if done.wait(timeout: .now() + 30) == .timedOut {
            Issue.record("layerkit never opened the FIFO")
            close(open(fifo, O_WRONLY | O_NONBLOCK))  // lets the reader go
            done.wait()
        }
        expectEqual(run.status, 0, "\(run.stderr)")
        let image = try Bitmap(pngData: [UInt8](received.data))
        expectEqual([image.width, image.height] as [Int], [480, 400])
        expectEqual(fileType(fifo), S_IFIFO)
        try expectEqual(FileManager.default.contentsOfDirectory(atPath: dir.path), ["pipe.png"])
    }

    /// A write that fails part-way (past a file size limit, which binds root as a full disk
    /// would) leaves the file it was to replace byte for byte as it was, with its permissions,
    /// and no temporary file beside it. (libpng's writer truncated the file and then removed it.)
    @Test func testAFailedWriteLeavesTheExistingFileAsItWas() throws {
        let dir = try temporary.directory()
        let (a, b) = try differingPNGs(in: dir)
        let target = dir.appendingPathComponent("precious.out").path
        let original = Data("a user's file, to be replaced only by a whole new one\n".utf8)
        let runs: [([String], String)] = [
            (["render", scene, "--backend", "cpu", "-o", target], "-o"),
            (["diff", a, b, "--heatmap", target], "--heatmap"),
            (["bench", scene, "--backend", "cpu", "--frames", "5", "--warmup", "0", "--trace", target], "--trace"),
        ]
        for (arguments, option) in runs {
            try original.write(to: URL(fileURLWithPath: target))
            expectEqual(chmod(target, 0o640), 0)
            // 2 blocks: 1 KiB (or 2 KiB), more than the original, less than each output.
            let run = try runLayerKit(arguments, fileSizeLimit: 2)
            expectEqual(run.status, 2, "\(option): \(run.stderr)")
            expectEqual(run.stderrLines.last, "layerkit: cannot write \(option) \(target): File too large")
            try expectEqual(Data(contentsOf: URL(fileURLWithPath: target)), original, "\(option)")
            try expectEqual(FileManager.default.attributesOfItem(atPath: target)[.posixPermissions] as? Int, 0o640, "\(option)")
            try expectEqual(FileManager.default.contentsOfDirectory(atPath: dir.path).sorted(), ["a.png", "b.png", "precious.out"], "\(option)")
        }
    }

    /// A successful write replaces the file with the new one, keeping its permissions; through
    /// a symbolic link it replaces the file the link names and the link stays a link (a link
    /// to no file yet gets the file where it points).
    @Test func testReplacingKeepsPermissionsAndLinks() throws {
        let dir = try temporary.directory()
        let target = dir.appendingPathComponent("out.png").path
        try Data("old".utf8).write(to: URL(fileURLWithPath: target))
        expectEqual(chmod(target, 0o604), 0)
        try expectEqual(runLayerKit(["render", scene, "--backend", "cpu", "-o", target]).status, 0)
        try expectEqual(Bitmap(contentsOfPNGFile: target).width, 480)
        try expectEqual(FileManager.default.attributesOfItem(atPath: target)[.posixPermissions] as? Int, 0o604)

        let link = dir.appendingPathComponent("link.png").path, linked = dir.appendingPathComponent("linked.png").path
        expectEqual(symlink("linked.png", link), 0)
        try expectEqual(runLayerKit(["render", scene, "--backend", "cpu", "-o", link]).status, 0, "a link to no file yet")
        expectEqual(fileType(link), S_IFLNK)
        try expectEqual(Bitmap(contentsOfPNGFile: linked).width, 480)
        try Data("old".utf8).write(to: URL(fileURLWithPath: linked))
        try expectEqual(runLayerKit(["render", scene, "--backend", "cpu", "-o", link]).status, 0, "a link to a file")
        expectEqual(fileType(link), S_IFLNK)
        try expectEqual(Bitmap(contentsOfPNGFile: linked).width, 480)
        try expectEqual(FileManager.default.contentsOfDirectory(atPath: dir.path).sorted(), ["link.png", "linked.png", "out.png"])
    }

    /// Outputs no one can write (in /proc, in /sys, under a path whose folder is a file) are
    /// refused before any work, whoever runs the command: one sentence naming the option, the
    /// path and why, exit 2, never a Foundation error dump.
    @Test func testUnwritableOutputsAreOneSentenceBeforeTheWork() throws {
        let dir = try temporary.directory()
        let (a, b) = try differingPNGs(in: dir)
        let underFile = scene + "/out.png"
        let outputs = [
            ("/proc/layerkit-out.png", "cannot create a file in /proc: "),
            ("/sys/layerkit-out.png", "cannot create a file in /sys: "),
            (underFile, "\(scene) is not a directory"),
        ]
        for (path, why) in outputs {
            let runs: [([String], String)] = [
                (["render", scene, "--backend", "cpu", "-o", path], "-o"),
                (["diff", a, b, "--heatmap", path], "--heatmap"),
                (["bench", scene, "--backend", "cpu", "--frames", "1", "--warmup", "0", "--trace", path], "--trace"),
                (["record", scene, "--backend", "cpu", "--duration", "0.1", "--fps", "10", "-o", path], "-o"),
            ]
            for (arguments, option) in runs {
                let run = try runLayerKit(arguments)
                expectEqual(run.status, 2, "\(arguments)")
                expectEqual(run.stdout, "", "\(arguments): refused before the work")
                expectEqual(run.stderrLines.count, 1, "\(run.stderr)")
                expect(run.stderr.hasPrefix("layerkit: cannot write \(option) \(path): \(why)"), "\(run.stderr)")
                expect(!run.stderr.contains("Domain"), "\(run.stderr)")
            }
        }
    }
}

/// The file type bits of `path` (not following a link), or nil when nothing is there.
private func fileType(_ path: String) -> mode_t? {
    var status = stat()
    return lstat(path, &status) == 0 ? status.st_mode & S_IFMT : nil
}
