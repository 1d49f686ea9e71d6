// Memory is budgeted before it is allocated (issue 23: 999,000 layers, inside the layer limit,
// aborted with "failed to allocate" under a 4 GB address-space limit). The reader estimates
// what the command will need from what it knows early (the file's size before parsing; the
// layer count, the decoded images and the canvas after the cheap count pass) and refuses a
// scene whose estimate is over what the process may use. The costs are upper bounds measured
// on 100,000 and 300,000 layers (docs/architecture.md, "Memory budget").

#if canImport(Glibc)
import Glibc
#endif
import Foundation

extension Scene {
    /// What a command does with a scene after reading it, and what that costs in address space.
    public struct MemoryUse: Equatable, Sendable {
        /// Address space mapped whatever the scene: the executable, its libraries, and for GL the
        /// driver's context.
        public var fixedBytes: Int
        /// Bytes per layer: the layer tree, plus the snapshot, display list and renderer state
        /// when the scene is drawn.
        public var bytesPerLayer: Int
        /// Bytes per pixel of the canvas (framebuffers, readback, the encoded output).
        public var bytesPerCanvasPixel: Int

        /// A use costing `fixedBytes`, plus `bytesPerLayer` a layer and `bytesPerCanvasPixel` a pixel.
        public init(fixedBytes: Int, bytesPerLayer: Int, bytesPerCanvasPixel: Int) {
            self.fixedBytes = fixedBytes
            self.bytesPerLayer = bytesPerLayer
            self.bytesPerCanvasPixel = bytesPerCanvasPixel
        }

        /// Reading only (`validate`, `probes`, `hit`): measured 83 MB fixed, 1.6 KB a layer.
        public static let reading = MemoryUse(fixedBytes: 128 << 20, bytesPerLayer: 2 << 10, bytesPerCanvasPixel: 0)
        /// Drawn on the CPU (`render`, `displaylist`, `bench`, `soak`, `record`): measured 92 MB
        /// fixed, up to 5.4 KB a layer with content, 6.3 KB with a shadow, and 16.4 bytes a canvas pixel.
        public static let cpuDrawing = MemoryUse(fixedBytes: 128 << 20, bytesPerLayer: 8 << 10, bytesPerCanvasPixel: 20)
        /// Drawn with GL: measured 680 MB fixed (llvmpipe), 6.0 KB a layer with content, 12 bytes a
        /// pixel; a KiB more than the CPU's bound a layer.
        public static let glDrawing = MemoryUse(fixedBytes: 768 << 20, bytesPerLayer: 9 << 10, bytesPerCanvasPixel: 20)
    }

    /// Parsing costs at most this many bytes per byte of the file (measured 27 for a file of
    /// empty layers `{},`, whose nodes are smallest per byte, 11 for layers with content).
    public static let parsingBytesPerFileByte = 32
    /// A decoded image costs this per pixel: its RGBA and the renderer's copy.
    public static let bytesPerImagePixel = 8

    /// The address space a command is estimated to need for a scene, an upper bound:
    /// `use.fixedBytes + 32 × fileBytes + use.bytesPerLayer × layers + 8 × imagePixels +
    /// use.bytesPerCanvasPixel × canvasPixels`, saturating rather than overflowing.
    public static func estimatedMemory(fileBytes: Int, layers: Int, imagePixels: Int, canvasPixels: Int, use: MemoryUse) -> Int {
        let terms = [(fileBytes, parsingBytesPerFileByte), (layers, use.bytesPerLayer),
                     (imagePixels, bytesPerImagePixel), (canvasPixels, use.bytesPerCanvasPixel)]
        return terms.reduce(use.fixedBytes) { sum, term in
            let (product, overflow) = term.0.multipliedReportingOverflow(by: term.1)
            return overflow ? Int.max : sum.addingReportingOverflow(product).overflow ? Int.max : sum + product
        }
    }

    /// What this process may use: the address-space limit (`ulimit -v`) when one is set, else
    /// the memory and swap the kernel reports available; nil when neither can be read.
    public static func memoryAvailable() -> (bytes: Int, source: String)? {
        var limit = rlimit()
        if getrlimit(Int32(RLIMIT_AS.rawValue), &limit) == 0, limit.rlim_cur != rlim_t.max {
            return (Int(clamping: limit.rlim_cur), "ulimit -v")
        }
        guard let text = try? String(contentsOfFile: "/proc/meminfo", encoding: .utf8) else { return nil }
        var kib: [String: Int] = [:]
        for line in text.split(separator: "\n") {
            let parts = line.split(separator: " ", omittingEmptySubsequences: true)
            if parts.count >= 2, let value = Int(parts[1]) { kib[String(parts[0].dropLast())] = value }
        }
        guard let available = kib["MemAvailable"] else { return nil }
        return ((available + (kib["SwapFree"] ?? 0)) * 1024, "available memory and swap")
    }

    /// Refuses `need` bytes over what the process may use: `what` (say "999000 layers") "need
    /// about 5.8 GiB, more than the 3.8 GiB this process may use (ulimit -v); split the scene
    /// or raise the limit". `available` is for tests; by default `memoryAvailable()`.
    static func checkMemory(_ need: Int, for what: String,
                            available: (bytes: Int, source: String)? = Scene.memoryAvailable()) throws {
        guard let available, need > available.bytes else { return }
        throw SceneError(path: "", message: "\(what) need about \(gibibytes(need)), more than the \(gibibytes(available.bytes)) "
                         + "this process may use (\(available.source)); split the scene or raise the limit")
    }

    private static func gibibytes(_ bytes: Int) -> String {
        String(format: "%.1f GiB", Double(bytes) / Double(1 << 30))
    }
}
