import CGL

/// What a draw of quads needs from the fragment shader: each feature is a `#define` that
/// compiles a piece of `Shaders/quad.frag.glsl` in. A draw uses the variant for the union of its
/// quads' features, so quads batch regardless of what they need.
struct ShaderFeatures: OptionSet, Hashable {
    let rawValue: UInt32
    static let shapeFull = ShaderFeatures(rawValue: 1 << 0)
    static let clips = ShaderFeatures(rawValue: 1 << 1)
    static let halfPlanes = ShaderFeatures(rawValue: 1 << 2)
    static let color = ShaderFeatures(rawValue: 1 << 3)
    static let nearest = ShaderFeatures(rawValue: 1 << 4)
    static let linear = ShaderFeatures(rawValue: 1 << 5)
    static let trilinear = ShaderFeatures(rawValue: 1 << 6)
    static let pass = ShaderFeatures(rawValue: 1 << 7)
    /// Some image's minification and magnification filters differ, or one is trilinear: the
    /// shader computes the level of detail.
    static let lod = ShaderFeatures(rawValue: 1 << 8)
    /// Some border leaves a hole: the shader computes the inner cut-out (with `shapeFull`
    /// through the rounded-rectangle coverage, else with the aliased inside test).
    static let border = ShaderFeatures(rawValue: 1 << 9)
    /// Some image's texel map has more than one segment on an axis (a nine-slice
    /// `contentsCenter`): the shader evaluates the segments (else one slope and offset).
    static let segmentedMaps = ShaderFeatures(rawValue: 1 << 10)
    /// Some rounded corner (of a quad or a clip) is `.continuous`: the shader evaluates the
    /// superellipse (else every corner is a quarter circle).
    static let continuousCorners = ShaderFeatures(rawValue: 1 << 11)
    /// Some quad's plane map is projective (perspective): the shader divides by the pixel's w
    /// (else every map is affine, w is exactly 1, and the divide and the Jacobian's
    /// corrections for it would change no number).
    static let perspective = ShaderFeatures(rawValue: 1 << 13)
    /// Not LayerKit's picture: a constant colour for every fragment (`GLRenderer.drawsFillFloor`).
    static let fillFloor = ShaderFeatures(rawValue: 1 << 12)
    /// Some border's hole is left out of its geometry (`FrameData.hole`): each instance is a
    /// ring of ten vertices (`GLDevice.ringVertices`), not a quad of four.
    static let hole = ShaderFeatures(rawValue: 1 << 14)

    /// The variant that draws these features' geometry with the constant colour: the same
    /// vertex stage (half-planes still clip it), no fill, shape or clip code.
    var fillFloorVariant: ShaderFeatures { intersection([.halfPlanes, .hole]).union(.fillFloor) }

    /// The defines, one per line. Half-planes are clipped by the vertex stage on desktop GL
    /// (`LK_CLIP_DISTANCE`, exact in homogeneous space) and by the fragment shader on GLSL ES
    /// (`LK_HALF_PLANES`); a draw without them carries neither.
    func defines(es: Bool) -> String {
        let names: [(ShaderFeatures, String)] = [
            (.shapeFull, "LK_SHAPE_FULL"), (.clips, "LK_CLIPS"), (.halfPlanes, es ? "LK_HALF_PLANES" : "LK_CLIP_DISTANCE"), (.color, "LK_COLOR"),
            (.nearest, "LK_NEAREST"), (.linear, "LK_LINEAR"), (.trilinear, "LK_TRILINEAR"), (.pass, "LK_PASS"),
            (.lod, "LK_LOD"), (.border, "LK_BORDER"), (.segmentedMaps, "LK_SEGMENTED_MAPS"),
            (.continuousCorners, "LK_CONTINUOUS"), (.fillFloor, "LK_FILL_FLOOR"),
            (.perspective, "LK_PERSPECTIVE"), (.hole, "LK_HOLE"),
        ]
        // One kind of fill (colour, image, pass) in the whole draw: the shader skips the test.
        let fills = [contains(.color), !isDisjoint(with: [.nearest, .linear, .trilinear]), contains(.pass)]
        let oneFill = fills.filter { $0 }.count == 1 ? "#define LK_ONE_FILL 1\n" : ""
        return names.filter { contains($0.0) }.map { "#define \($0.1) 1\n" }.joined() + oneFill
    }
}

/// A linked GLSL program and the uniform locations the renderer sets.
struct ShaderProgram {
    let name: GLuint
    private(set) var uniforms: [String: GLint] = [:]

    /// Compiles and links `vertex` and `fragment` (sources from `EmbeddedShaders`, written as
    /// `#version 330 core`) with `defines` and the data texture's sizes after the version line,
    /// then the quad record's prelude (`QuadRecordField.glslPrelude`) when `readsQuadRecords`;
    /// on an OpenGL ES context the version line becomes `#version 300 es` with highp defaults.
    init(device: GLDevice, label: String, vertex: String, fragment: String, es: Bool, defines: String = "",
         readsQuadRecords: Bool = false, uniforms names: [String]) throws {
        func prelude(vertex: Bool) -> String {
            defines + FrameData.glslConstants + (readsQuadRecords ? QuadRecordField.glslPrelude(vertex: vertex) : "")
        }
        name = try device.makeProgram(vertex: ShaderProgram.adapt(vertex, es: es, prelude: prelude(vertex: true)),
                                      fragment: ShaderProgram.adapt(fragment, es: es, prelude: prelude(vertex: false)), label: label)
        for n in names { uniforms[n] = device.uniformLocation(name, n) }
        try device.check("link \(label) program")
    }

    /// The location of a uniform named at init (-1 when the compiler dropped it).
    subscript(_ uniform: String) -> GLint { uniforms[uniform] ?? -1 }

    /// `source` with its version line replaced by the context's, followed by `prelude`.
    static func adapt(_ source: String, es: Bool, prelude: String) -> String {
        let header = es ? "#version 300 es\nprecision highp float;\nprecision highp int;\nprecision highp sampler2D;\n"
                        : "#version 330 core\n"
        return source.replacingFirstLine(with: header + prelude)
    }
}

extension String {
    fileprivate func replacingFirstLine(with header: String) -> String {
        guard let nl = firstIndex(of: "\n") else { return header }
        return header + self[index(after: nl)...]
    }
}
