/// The quad record's fields: the one description of the layout that `FrameData` writes, the
/// shaders read (through the GLSL prelude made from it, `QuadRecordField.glslPrelude`) and the
/// tests decode (as WebRender's `gpu_types.rs` mirrors its GLSL).
///
/// A record is `FrameData.quadStride` RGBA32F texels of the data texture; a field is a run of
/// floats in it. The vertex shader reads its fields with `texelFetch`; every texel holding a
/// fragment field is forwarded to the fragment shader as one flat varying, which the prelude
/// declares and unpacks by name. Adding a field is one `case` here (the compiler then asks for
/// its span); the shaders name it `rec_NAME` (fragment) or `fetch_NAME(base)` (vertex).
enum QuadRecordField: CaseIterable {
    /// The transform, local (rebased) → pass pixels, in `CATransform3D` memory order m11 m12 …
    /// m44, so that `mat4(t0, t1, t2, t3) * v` is the row-vector product v·M.
    case transform
    /// The local rectangle the geometry covers (x0, y0, x1, y1): the layer's, pushed out by the
    /// geometry margin so that antialiased edges and pixel centres on an edge get fragments.
    case geometry
    /// The inverse plane map, pixel → local: the coefficients of the pixel's x…
    case mapDx
    /// …of its y…
    case mapDy
    /// …and the constant row: [qx qy 1]·M, pixels relative to `referencePixel`.
    case mapOrigin
    /// The reference pixel (an integer pixel near the quad) that maps and half-planes are
    /// relative to.
    case referencePixel
    /// The quad's opacity.
    case opacity
    /// The layer's rectangle (minX, minY, maxX, maxY), rebased.
    case rect
    /// 1 when the border leaves a hole (the inner cut-out is drawn), else 0.
    case borderHasHole
    /// 1 for antialiased edges, 0 for aliased.
    case antialiased
    /// 0 colour, 1 image, 2 pass.
    case fillKind
    /// Clips in the clip loop (rounded rectangles, half-planes beyond the record's).
    case clipCount
    /// The texel where the quad's clip records start.
    case clipStart
    /// Image fills: the minification filter, 0 nearest, 1 linear, 2 trilinear.
    case minificationFilter
    /// Image fills: the magnification filter, as `minificationFilter`.
    case magnificationFilter
    /// Pass fills: pass pixels per local unit.
    case passScale
    /// Pass fills: 1 when a mask pass multiplies the source's alpha.
    case passHasMask
    /// Pass fills: 1 when the source's alpha is tinted with `color` (shadows).
    case passHasTint
    /// Pass fills: the fraction of the second pass (bound as the mask) cross-faded in (a
    /// transition); 0 when there is none.
    case passCrossfade
    /// The colour fill, a pass fill's tint, or what an image fill's texels are multiplied by
    /// (`ImageFill.modulation`), premultiplied.
    case color
    /// Image fills: the x texel map's three segment starts (unused ones at +∞)…
    case imageXStarts
    /// …the texel at each start…
    case imageXTexels
    /// …and each segment's slope (texels per local unit).
    case imageXSlopes
    /// The y texel map's segment starts, as `imageXStarts`.
    case imageYStarts
    /// The y texels at the starts.
    case imageYTexels
    /// The y slopes.
    case imageYSlopes
    /// The corner radius.
    case cornerRadius
    /// The border width (0: no border).
    case borderWidth
    /// Up to eight half-plane clips (A, B, C) in pass pixels relative to `referencePixel`: the
    /// pixel centre q is kept where A qx + B qy + C ≥ 0; unused ones are (0, 0, 1).
    case halfPlanes
    /// An image's x map when each axis has one segment: (start, texel, slope).
    case imageXSegment
    /// The y map's one segment: (start, texel, slope).
    case imageYSegment
    /// The corners' code (`Corners.code`): the bits of the corners `maskedCorners` leaves
    /// square, plus 16 for the continuous curve; 0 is Core Animation's default.
    case cornerCode
    /// The local (rebased) rectangle inside which a border quad draws nothing (x0, y0, x1, y1),
    /// which its geometry leaves out (`FrameData.hole`); (0, 0, 0, 0) for none.
    case hole

    /// Which shader reads a field.
    enum Stage {
        /// Only the vertex shader (the field may be any length, and starts a texel).
        case vertex
        /// The fragment shader, through the flat varyings (at most four floats).
        case fragment
    }

    /// Where the field lives: its first float in the record, how many floats, who reads it.
    /// Fields of different fills may share floats (`fill`); no others do.
    var span: (offset: Int, count: Int, stage: Stage, fill: Int?) {
        switch self {
        case .transform: (0, 16, .vertex, nil)
        case .geometry: (16, 4, .vertex, nil)
        case .mapDx: (20, 3, .fragment, nil)
        case .mapDy: (23, 3, .fragment, nil)
        case .mapOrigin: (26, 3, .fragment, nil)
        case .referencePixel: (29, 2, .fragment, nil)
        case .opacity: (31, 1, .fragment, nil)
        case .rect: (32, 4, .fragment, nil)
        case .borderHasHole: (36, 1, .fragment, nil)
        case .antialiased: (37, 1, .fragment, nil)
        case .fillKind: (38, 1, .fragment, nil)
        case .clipCount: (39, 1, .fragment, nil)
        case .clipStart: (40, 1, .fragment, nil)
        case .minificationFilter: (41, 1, .fragment, 1)
        case .magnificationFilter: (42, 1, .fragment, 1)
        case .passScale: (41, 1, .fragment, 2)
        case .passHasMask: (42, 1, .fragment, 2)
        case .passHasTint: (43, 1, .fragment, 2)
        case .color: (44, 4, .fragment, nil)
        case .imageXStarts: (48, 3, .fragment, 1)
        case .passCrossfade: (48, 1, .fragment, 2)
        case .imageXTexels: (51, 3, .fragment, nil)
        case .imageXSlopes: (54, 3, .fragment, nil)
        case .imageYStarts: (57, 3, .fragment, nil)
        case .imageYTexels: (60, 3, .fragment, nil)
        case .imageYSlopes: (63, 3, .fragment, nil)
        case .cornerRadius: (66, 1, .fragment, nil)
        case .borderWidth: (67, 1, .fragment, nil)
        case .halfPlanes: (68, 3 * FrameData.maxRecordHalfPlanes, .vertex, nil)
        case .imageXSegment: (92, 3, .fragment, nil)
        case .imageYSegment: (95, 3, .fragment, nil)
        case .cornerCode: (98, 1, .fragment, nil)
        case .hole: (100, 4, .vertex, nil)
        }
    }

    /// The name the shaders use.
    var glslName: String { "\(self)" }

    /// The texels (record-relative) that hold a fragment field, in order: each is one varying.
    static let fragmentTexels: [Int] = Array(Set(allCases.filter { $0.span.stage == .fragment }.flatMap { field in
        (field.span.offset / 4)...((field.span.offset + field.span.count - 1) / 4)
    })).sorted()

    /// The GLSL expression for the field's floats, from the texels `texel(i)` names: a swizzle
    /// of one texel, or a constructor where the field crosses texels.
    private func expression(_ texel: (Int) -> String) -> String {
        let (offset, count, _, _) = span
        let components = Array("xyzw")
        let parts = (offset..<(offset + count)).map { (texel: $0 / 4, component: components[$0 % 4]) }
        if parts.allSatisfy({ $0.texel == parts[0].texel }) {
            return texel(parts[0].texel) + "." + String(parts.map(\.component))
        }
        let type = count == 1 ? "float" : "vec\(count)"
        return type + "(" + parts.map { texel($0.texel) + "." + String($0.component) }.joined(separator: ", ") + ")"
    }

    /// The prelude the renderer puts after the version line and defines of a quad shader: the
    /// record's sizes, each field's texel (`REC_NAME_TEXEL`), `fetch_NAME(base)` for fields of
    /// up to four floats, and for the fragment stage's texels a flat varying each (`v_recN`,
    /// written by `REC_FORWARD(base)` in the vertex shader) with `rec_NAME` unpacking it.
    static func glslPrelude(vertex: Bool) -> String {
        var lines = ["// The quad record's layout, generated from QuadRecordField (QuadRecordLayout.swift).",
                     "#define QUAD_STRIDE \(FrameData.quadStride)"]
        for field in allCases {
            lines.append("#define REC_\(field.glslName)_TEXEL \(field.span.offset / 4)")
            if field.span.count <= 4 {
                lines.append("#define fetch_\(field.glslName)(base) \(field.expression { "fetch((base) + \($0))" })")
            }
        }
        let storage = vertex ? "flat out" : "flat in"
        lines += fragmentTexels.map { "\(storage) vec4 v_rec\($0);" }
        if vertex {
            lines.append("#define REC_FORWARD(base) " + fragmentTexels.map { "v_rec\($0) = fetch((base) + \($0));" }.joined(separator: " "))
            // store_NAME(value) overwrites a forwarded field (a replicated copy's map and colour).
            for field in allCases where field.span.stage == .fragment && field.span.count <= 4 {
                let (offset, count, _, _) = field.span
                let type = count == 1 ? "float" : "vec\(count)"
                let parts = (0..<count).map { i -> String in
                    let f = offset + i
                    return "v_rec\(f / 4).\(Array("xyzw")[f % 4]) = s_" + (count == 1 ? "" : ".\(Array("xyzw")[i])") + ";"
                }
                lines.append("#define store_\(field.glslName)(v) { \(type) s_ = (v); " + parts.joined(separator: " ") + " }")
            }
        } else {
            for field in allCases where field.span.stage == .fragment {
                lines.append("#define rec_\(field.glslName) \(field.expression { "v_rec\($0)" })")
            }
        }
        return lines.joined(separator: "\n") + "\n"
    }
}

/// The floats of one quad record, written and read by field (in doubles until they are stored).
struct QuadRecord {
    /// `FrameData.quadStride` texels of four floats.
    private(set) var floats = [Double](repeating: 0, count: FrameData.quadStride * 4)

    /// An empty record (every field 0), which draws nothing.
    init() {}

    /// Makes every field 0 again.
    mutating func clear() { floats.withUnsafeMutableBufferPointer { $0.update(repeating: 0) } }

    /// The record whose floats are `floats`.
    init<S: Sequence>(floats: S) where S.Element: BinaryFloatingPoint {
        self.floats = floats.map { Double($0) }
        precondition(self.floats.count == FrameData.quadStride * 4, "a quad record is \(FrameData.quadStride) texels")
    }

    /// The field's floats.
    subscript(field: QuadRecordField) -> [Double] {
        get { Array(floats[field.span.offset..<(field.span.offset + field.span.count)]) }
        set {
            precondition(newValue.count == field.span.count, "\(field) has \(field.span.count) floats")
            // Element by element: `replaceSubrange` was a generic call per field, 17 a quad.
            let offset = field.span.offset
            for (i, v) in newValue.enumerated() { floats[offset + i] = v }
        }
    }

    /// A field of one float.
    subscript(field: QuadRecordField) -> Double {
        get { floats[field.span.offset] }
        set {
            precondition(field.span.count == 1, "\(field) has \(field.span.count) floats")
            floats[field.span.offset] = newValue
        }
    }

    /// A field of two to sixteen floats, from a SIMD vector rather than an array: records are
    /// written for every quad of every frame, and an array literal a field was an allocation.
    subscript<V: SIMD>(field: QuadRecordField) -> V where V.Scalar == Double {
        get { V(floats[field.span.offset..<(field.span.offset + V.scalarCount)]) }
        set {
            precondition(V.scalarCount == field.span.count, "\(field) has \(field.span.count) floats")
            let offset = field.span.offset
            for i in 0..<V.scalarCount { floats[offset + i] = newValue[i] }
        }
    }

    /// Float `k` of a field (a half-plane's coefficient, one entry of the transform).
    subscript(field: QuadRecordField, k: Int) -> Double {
        get { floats[field.span.offset + k] }
        set {
            precondition(k < field.span.count, "\(field) has \(field.span.count) floats")
            floats[field.span.offset + k] = newValue
        }
    }
}
