// The types of CAOpenGLLayer's API, adapted from Apple's CGL and Core Video to headless EGL.
//
// On macOS `CGLContextObj` and `CGLPixelFormatObj` are opaque CGL pointers. Here the context is
// an `EGLHeadlessContext` (a class, so that it is shared and released as CGL's retained
// objects are) and the pixel format is the client API the context speaks: EGL chooses the
// rest of the configuration (RGBA8, no surface), and a layer never draws into a window.
//
// `displayTime` stays Apple's `UnsafePointer<CVTimeStamp>?`, pointing at a small CVTimeStamp
// with Apple's field names (and only the fields that mean something without a display), so
// that code reading `ts?.pointee.hostTime` or `videoTime` ports unchanged; `nil` would have
// made such code fail to compile for a value LayerKit can give.

/// The OpenGL context a `CAOpenGLLayer` draws in: a headless EGL context.
public typealias CGLContextObj = EGLHeadlessContext

/// The pixel format of a `CAOpenGLLayer`'s context: which client API it speaks (desktop OpenGL
/// 3.3 core profile by default). Colour is RGBA8 in every case.
public typealias CGLPixelFormatObj = EGLHeadlessContext.API

/// Core Video's time stamp of a display refresh, as `CAOpenGLLayer` hands it to
/// `canDraw(inCGLContext:…)` and `draw(inCGLContext:…)`: the frame's media time
/// (`CACurrentMediaTime`'s clock, or the display link's frame time while one runs), in
/// nanoseconds. LayerKit has no display to count refreshes of, so `videoRefreshPeriod` is 0
/// and SMPTE time is absent.
public struct CVTimeStamp: Equatable, Sendable {
    /// The structure's version: 0.
    public var version: UInt32 = 0
    /// Units of `videoTime` per second: 1,000,000,000.
    public var videoTimeScale: Int32 = 1_000_000_000
    /// The frame's media time in `videoTimeScale` units.
    public var videoTime: Int64 = 0
    /// The frame's media time in nanoseconds, the host clock's unit here.
    public var hostTime: UInt64 = 0
    /// The ratio of the actual to the nominal refresh rate: 1.
    public var rateScalar: Double = 1
    /// The refresh period in `videoTimeScale` units: 0, unknown without a display.
    public var videoRefreshPeriod: Int64 = 0
    /// Which fields are valid: `kCVTimeStampVideoTimeValid | kCVTimeStampHostTimeValid`.
    public var flags: UInt64 = 0

    /// A time stamp of media time `seconds`, its video and host times valid.
    public init(mediaTime seconds: Double) {
        let nanoseconds = (max(seconds, 0) * 1e9).rounded()
        videoTime = nanoseconds < 9e18 ? Int64(nanoseconds) : Int64.max
        hostTime = UInt64(videoTime)
        flags = kCVTimeStampVideoTimeValid | kCVTimeStampHostTimeValid
    }
}

/// `CVTimeStamp.flags`: `videoTime` is valid.
public let kCVTimeStampVideoTimeValid: UInt64 = 1 << 0
/// `CVTimeStamp.flags`: `hostTime` is valid.
public let kCVTimeStampHostTimeValid: UInt64 = 1 << 1
