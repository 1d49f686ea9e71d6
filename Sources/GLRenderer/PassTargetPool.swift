import CGL

/// An offscreen render target: an RGBA8 texture and the framebuffer that draws into it.
struct PassTarget {
    let texture: GLuint
    let framebuffer: GLuint
    let width: Int
    let height: Int
    var bytes: Int { width * height * 4 }
}

/// Offscreen targets kept across frames and handed out by size, so that a steady scene
/// allocates no GL memory per frame. A target returned to the pool during a frame can serve a
/// later pass of the same frame (GL orders the reads before the new writes). Targets left idle
/// for more than `idleFrames` frames are deleted.
final class PassTargetPool {
    private struct Idle {
        let target: PassTarget
        let since: Int
    }
    private var idle: [Idle] = []
    /// Targets handed out and not yet returned.
    private(set) var inUse = 0
    /// Bytes of all targets, idle or in use.
    private(set) var bytesHeld = 0
    /// Targets, idle or in use.
    private(set) var count = 0
    let idleFrames = 2

    /// A target of exactly `width` x `height`.
    func acquire(width: Int, height: Int, state: inout GLDevice) throws -> PassTarget {
        inUse += 1
        // The most recently returned: taking the oldest would keep every spare target of a
        // size in use in turn (the canvas's size, say), so none would ever be idle long
        // enough to go.
        if let i = idle.lastIndex(where: { $0.target.width == width && $0.target.height == height }) {
            return idle.remove(at: i).target
        }
        let texture = state.makeTexture(min: GL_NEAREST, mag: GL_NEAREST)
        state.defineTexels(level: 0, format: GL_RGBA8, width: width, height: height, nil)
        state.unbindEverywhere(texture)
        let (framebuffer, status) = state.makeFramebuffer(drawingInto: texture)
        let target = PassTarget(texture: texture, framebuffer: framebuffer, width: width, height: height)
        count += 1
        bytesHeld += target.bytes
        guard status == GLenum(GL_FRAMEBUFFER_COMPLETE) else {
            delete(target, state: &state)
            inUse -= 1
            throw GLRendererError.framebufferIncomplete(width: width, height: height, status: status)
        }
        return target
    }

    /// Gives `target` back for reuse.
    func release(_ target: PassTarget, frame: Int) {
        inUse -= 1
        idle.append(Idle(target: target, since: frame))
    }

    /// Deletes targets idle for too long.
    func trim(frame: Int, state: inout GLDevice) {
        let (keep, drop) = (idle.filter { frame - $0.since <= idleFrames }, idle.filter { frame - $0.since > idleFrames })
        for d in drop { delete(d.target, state: &state) }
        idle = keep
    }

    /// Deletes every idle target (call with none in use).
    func removeAll(state: inout GLDevice) {
        for d in idle { delete(d.target, state: &state) }
        idle = []
    }

    private func delete(_ target: PassTarget, state: inout GLDevice) {
        state.deleteFramebuffer(target.framebuffer)
        state.deleteTexture(target.texture)
        count -= 1
        bytesHeld -= target.bytes
    }
}
