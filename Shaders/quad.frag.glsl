#version 330 core
// LayerKit quad fragment shader: the per-pixel function of the CPU reference
// (Sources/LayerCompositor/DisplayList/QuadCoverage.swift, Sources/CPURenderer/PreparedQuad.swift),
// transcribed.
//
// Pixel centre -> the quad's local plane through its inverse plane map (perspective-correct,
// with the analytic Jacobian), shape coverage there (rounded rectangle or border), times the
// coverage of every clip (each through its own plane map), times the fill (colour, image with
// the layer's filters at the analytic level of detail, or an earlier pass), times opacity;
// premultiplied, blended source-over by the fixed-function blender.
//
// Precision: the CPU works in doubles, this shader in 32-bit floats. The renderer rebases every
// map on the CPU (in doubles) so that the numbers stay small here: pixel coordinates are taken
// relative to a reference pixel near the quad, local coordinates relative to the (rounded)
// local point under that pixel, so a layer a billion points wide is still exact near its
// visible edges.
//
// Variants: the renderer compiles this file once per set of features a draw needs, with
// defines after the version line (llvmpipe, like most GPUs, pays for both sides of a branch,
// so a draw of plain colour quads should not carry the image and pass code):
//   LK_SHAPE_FULL     rounded corners or antialiased edges (else the aliased inside test)
//   LK_CLIPS          the clip loop (rounded-rectangle clips, half-planes beyond those in the
//                     record: eight on desktop GL, four on GLSL ES)
//   LK_HALF_PLANES    up to four half-planes from the vertex shader (GLSL ES; desktop GL clips
//                     them away in the vertex stage, LK_CLIP_DISTANCE)
//   LK_COLOR          colour fills
//   LK_NEAREST        image fills sampled with GL_NEAREST (at some level of detail)
//   LK_LINEAR         image fills sampled bilinearly from level 0
//   LK_TRILINEAR      image fills sampled between mip levels
//   LK_PASS           pass fills
//   LK_LOD            some image minifies and magnifies with different filters, or trilinear:
//                     the analytic level of detail is computed (else both filters are the same
//                     and the level of detail decides nothing)
//   LK_BORDER         some border leaves a hole: the inner cut-out
//   LK_ONE_FILL       the draw's quads all have the same kind of fill: no per-quad test
//   LK_CONTINUOUS     some corner (of a quad or a clip) is continuous: the superellipse
//   LK_SEGMENTED_MAPS some image's texel map has several segments (contentsCenter); else every
//                     map has one segment per axis (rec_imageXSegment, rec_imageYSegment: the
//                     first segment of axis(),
//                     with the same arithmetic), and the segment inputs are left unread, which
//                     spares the rasteriser their setup
//   LK_PERSPECTIVE    some quad's plane map is projective: the divide by w per pixel (else w is
//                     exactly 1 for every quad, and dividing by it would change no number)
//   LK_FILL_FLOOR     not LayerKit's picture: every fragment writes one constant colour, and
//                     nothing above is computed (`GLRenderer.drawsFillFloor`): the rasteriser's
//                     cost of the same geometry, the floor a frame's time is measured against

// The quad record's fields arrive as flat varyings, unpacked by name (rec_cornerRadius…) by the
// prelude the renderer puts after the version line, made from the one description of the
// layout, Sources/GLRenderer/QuadRecordLayout.swift (see quad.vert.glsl).

uniform highp sampler2D u_data;   // records (see quad.vert.glsl) and clip records
uniform highp sampler2D u_image;  // image fill: contents, rows top-down, with uploaded mip levels
uniform highp sampler2D u_pass;   // pass fill: an earlier pass, rows bottom-up
uniform highp sampler2D u_mask;   // pass fill: the mask or cross-faded pass, rows bottom-up
uniform float u_passHeight;       // height of the pass being drawn, for top-left pixel rows
uniform vec2 u_imageSize;         // u_image's level 0 size in texels (textureSize per fragment
                                  // cost llvmpipe a sixth of an image-heavy frame)
uniform ivec2 u_sourceSize;       // u_pass's size (u_mask's is the same)

#ifdef LK_HALF_PLANES
flat in vec4 v_h0;
flat in vec4 v_h1;
flat in vec4 v_h2;
#endif

layout(location = 0) out vec4 o_color;

vec4 fetch(int i) {
    return texelFetch(u_data, ivec2(i % DATA_WIDTH, i / DATA_WIDTH), 0);
}

// QuadCoverage.local: the local point and the pixel -> local Jacobian (dx/dpx, dy/dpx, dx/dpy,
// dy/dpy) at pixel offset q; false when the pixel sees the plane from behind the eye.
bool localPoint(vec3 c0, vec3 c1, vec3 c2, vec2 q, out vec2 l, out vec4 jac) {
    // c0, c1, c2 are the map's rows: [qx qy 1] . M
    vec3 h = q.x * c0 + q.y * c1 + c2;
    if (!(h.z > 0.0)) return false;
    float iw = 1.0 / h.z;
    l = h.xy * iw;
    jac = vec4((c0.x - l.x * c0.z) * iw, (c0.y - l.y * c0.z) * iw,
               (c1.x - l.x * c1.z) * iw, (c1.y - l.y * c1.z) * iw);
    return true;
}

// QuadCoverage.RoundedRect.coverage for the rectangle rect = (minX, minY, maxX, maxY), with the corners of
// Corners.code left square (bits 1, 2, 4, 8: minX minY, maxX minY, minX maxY, maxX maxY) and
// continuous when bit 16 is set (LK_CONTINUOUS: ContinuousCorner's superellipse; without it
// every corner is a quarter circle). The reference's |x - centre| - (half width - a) is
// written max(minX - x, x - maxX) + a, the same number, but exact where an edge is near and
// the rectangle is enormous.
float roundedRect(vec2 p, vec4 rect, float radius, int code, bool antialiased, vec4 jac) {
    // Straight-line code (selects, no branches): llvmpipe runs both sides of a branch anyway,
    // and its control flow costs more than the arithmetic. Every value is computed as the
    // branching reference computes it; the selects only pick which one is returned.
    float hw = (rect.z - rect.x) * 0.5, hh = (rect.w - rect.y) * 0.5;
    vec2 below = rect.xy - p, above = p - rect.zw;
    bool left = below.x > above.x, top = below.y > above.y;
    float s = min(hw, hh);
    int bit = left ? (top ? 1 : 4) : (top ? 2 : 8);
    float r = (code & bit) != 0 ? 0.0 : min(max(radius, 0.0), s);
    float a = r;
#ifdef LK_CONTINUOUS
    // ContinuousCorner.halfAxis and .exponent: the half-axis ac along each edge, the exponent n.
    bool continuous = (code & 16) != 0 && r > 0.0;
    float ac = min(CONTINUOUS_EXTENT * r, s);
    float t = (ac / r - 1.0) / (CONTINUOUS_EXTENT - 1.0);
    float circleInset = 1.0 - sqrt(0.5);
    float inset = r * (circleInset + t * (CONTINUOUS_DIAGONAL_INSET - circleInset));
    float n = continuous ? log(2.0) / -log(1.0 - inset / ac) : 2.0;
    a = continuous ? ac : r;
#endif
    float qx = max(below.x, above.x) + a, qy = max(below.y, above.y) + a;
    bool corner = qx > 0.0 && qy > 0.0;
    bool inCorner = corner && a > 0.0;
    float inside = (p.x >= rect.x && p.x < rect.z && p.y >= rect.y && p.y < rect.w) ? 1.0 : 0.0;
    float l = sqrt(qx * qx + qy * qy);
    float cornerD = l - a, cornerNx = qx / l, cornerNy = qy / l;
#ifdef LK_CONTINUOUS
    // The superellipse's norm, scaled by the larger coordinate, and its gradient.
    float m = max(qx, qy);
    float norm = m * pow(pow(qx / m, n) + pow(qy / m, n), 1.0 / n);
    float sx = pow(qx / norm, n - 1.0), sy = pow(qy / norm, n - 1.0);
    float sl = sqrt(sx * sx + sy * sy);
    bool superellipse = n != 2.0;
    cornerD = superellipse ? (norm - a) / sl : cornerD;
    cornerNx = superellipse ? sx / sl : cornerNx;
    cornerNy = superellipse ? sy / sl : cornerNy;
#endif
    bool alongX = qx > qy;
    float d = corner ? cornerD : (alongX ? qx - a : qy - a);
    float nx = corner ? cornerNx : (alongX ? 1.0 : 0.0);
    float ny = corner ? cornerNy : (alongX ? 0.0 : 1.0);
    nx = left ? -nx : nx;
    ny = top ? -ny : ny;
    float gx = nx * jac.x + ny * jac.y, gy = nx * jac.z + ny * jac.w;
    float g = sqrt(gx * gx + gy * gy);
    float edge = g > 0.0 ? clamp(0.5 - d / g, 0.0, 1.0) : (d <= 0.0 ? 1.0 : 0.0);
    return (!antialiased && !inCorner) ? inside : edge;
}

// A clip record: a rounded rectangle through its own plane map (kind 0), or a half-plane
// A qx + B qy + C >= 0 in pass pixels relative to the reference pixel (kind 1, in a.xyz).
float clipCoverage(int start, vec2 q) {
    vec4 a = fetch(start), b = fetch(start + 1), c = fetch(start + 2), e = fetch(start + 3);
    if (c.y != 0.0) return dot(a.xyz, vec3(q, 1.0)) >= 0.0 ? 1.0 : 0.0;
    vec2 l; vec4 jac;
    if (!localPoint(a.xyz, vec3(a.w, b.xy), vec3(b.zw, c.x), q, l, jac)) return 0.0;
    // e.w is the antialiasing flag plus twice the corner code.
    int flags = int(e.w);
    return roundedRect(l, vec4(c.zw, e.xy), e.z, flags >> 1, (flags & 1) != 0, jac);
}

// One axis of an AxisMap: up to three segments (start s, texel t, slope b); the texel
// coordinate and the slope at v.
vec2 axis(float v, vec3 s, vec3 t, vec3 b) {
    if (v >= s.z) return vec2(t.z + (v - s.z) * b.z, b.z);
    if (v >= s.y) return vec2(t.y + (v - s.y) * b.y, b.y);
    return vec2(t.x + (v - s.x) * b.x, b.x);
}

// GL_NEAREST at texel coordinates, clamped to the edge (exact: no normalised coordinates).
vec4 nearestTexel(vec2 uv) {
    ivec2 i = clamp(ivec2(floor(uv)), ivec2(0), ivec2(u_imageSize) - 1);
    return texelFetch(u_image, i, 0);
}

// GL_LINEAR at texel coordinates (top-left rows) of a pass texture (rows bottom-up, u_sourceSize
// texels), clamped to the edge, in full float precision.
vec4 passLinear(sampler2D tex, vec2 uv) {
    ivec2 size = u_sourceSize;
    vec2 f = uv - 0.5;
    vec2 i = floor(f);
    vec2 w = f - i;
    ivec2 i0 = clamp(ivec2(i), ivec2(0), size - 1), i1 = clamp(ivec2(i) + 1, ivec2(0), size - 1);
    int r0 = size.y - 1 - i0.y, r1 = size.y - 1 - i1.y;
    vec4 top = texelFetch(tex, ivec2(i0.x, r0), 0) * (1.0 - w.x) + texelFetch(tex, ivec2(i1.x, r0), 0) * w.x;
    vec4 bottom = texelFetch(tex, ivec2(i0.x, r1), 0) * (1.0 - w.x) + texelFetch(tex, ivec2(i1.x, r1), 0) * w.x;
    return top * (1.0 - w.y) + bottom * w.y;
}

void main() {
#ifdef LK_FILL_FLOOR
    // Translucent: an opaque constant might let a driver skip reading the target, which the
    // picture's translucent quads never can.
    o_color = vec4(128.0 / 255.0, 0.0, 0.0, 128.0 / 255.0);
    return;
#endif
    // Pixel centre in top-left pixel coordinates, relative to the quad's reference pixel.
    vec2 q = vec2(gl_FragCoord.x, u_passHeight - gl_FragCoord.y) - rec_referencePixel;
#ifdef LK_HALF_PLANES
    vec3 q1 = vec3(q, 1.0);
    if (dot(v_h0.xyz, q1) < 0.0 || dot(vec3(v_h0.w, v_h1.xy), q1) < 0.0 ||
        dot(vec3(v_h1.zw, v_h2.x), q1) < 0.0 || dot(v_h2.yzw, q1) < 0.0) discard;
#endif
    // QuadCoverage.local, inline and without branches (see roundedRect): a pixel that sees the
    // plane from behind (front false) gets no coverage.
    vec3 c0 = rec_mapDx, c1 = rec_mapDy;
    vec3 h = q.x * c0 + q.y * c1 + rec_mapOrigin;
#ifdef LK_PERSPECTIVE
    bool front = h.z > 0.0;
    float iw = 1.0 / h.z;
    vec2 l = h.xy * iw;
  #if defined(LK_SHAPE_FULL) || defined(LK_LOD)
    vec4 jac = vec4((c0.x - l.x * c0.z) * iw, (c0.y - l.y * c0.z) * iw,
                    (c1.x - l.x * c1.z) * iw, (c1.y - l.y * c1.z) * iw);
  #endif
#else
    // Affine: c0.z and c1.z are 0 and h.z is exactly 1, so the same formulas give these same
    // numbers without the divide.
    bool front = true;
    vec2 l = h.xy;
    vec4 jac = vec4(c0.xy, c1.xy);
#endif

    // Shape.
    vec4 rect = rec_rect;
#ifdef LK_SHAPE_FULL
    float radius = rec_cornerRadius;
    int code = int(rec_cornerCode);
    bool aa = rec_antialiased != 0.0;
    float cov = roundedRect(l, rect, radius, code, aa, jac);
  #ifdef LK_BORDER
    float bw = rec_borderWidth;
    float hole = roundedRect(l, rect + vec4(bw, bw, -bw, -bw), max(radius - bw, 0.0), code, aa, jac);
    cov = (rec_borderHasHole != 0.0 && cov > 0.0) ? cov * (1.0 - hole) : cov;
  #endif
#else
    // Aliased square corners: roundedRect reduces to the inside test (r is 0, no corner).
    float cov = (l.x >= rect.x && l.x < rect.z && l.y >= rect.y && l.y < rect.w) ? 1.0 : 0.0;
  #ifdef LK_BORDER
    float bw = rec_borderWidth;
    vec4 inner = rect + vec4(bw, bw, -bw, -bw);
    float hole = (l.x >= inner.x && l.x < inner.z && l.y >= inner.y && l.y < inner.w) ? 1.0 : 0.0;
    cov = (rec_borderHasHole != 0.0 && cov > 0.0) ? cov * (1.0 - hole) : cov;
  #endif
#endif
    cov = front ? cov : 0.0;

#ifdef LK_CLIPS
    if (!(cov > 0.0)) discard;
    int clipCount = int(rec_clipCount);
    int clipStart = int(rec_clipStart);
    for (int k = 0; k < clipCount; k++) {
        cov *= clipCoverage(clipStart + k * CLIP_STRIDE, q);
        if (!(cov > 0.0)) discard;
    }
#endif

    // Fill. With one kind of fill in the draw (LK_ONE_FILL) it is taken without a test.
    vec4 color = vec4(0.0);
    float fillKind = rec_fillKind;
#ifdef LK_COLOR
  #ifdef LK_ONE_FILL
    color = rec_color;
  #else
    color = fillKind == 0.0 ? rec_color : color;
  #endif
#endif
#if defined(LK_NEAREST) || defined(LK_LINEAR) || defined(LK_TRILINEAR)
  #ifndef LK_ONE_FILL
    if (fillKind == 1.0)
  #endif
    {
  #ifdef LK_SEGMENTED_MAPS
        vec2 ux = axis(l.x, rec_imageXStarts, rec_imageXTexels, rec_imageXSlopes);
        vec2 vy = axis(l.y, rec_imageYStarts, rec_imageYTexels, rec_imageYSlopes);
  #else
        // (start, texel, slope) per axis.
        vec3 xs = rec_imageXSegment, ys = rec_imageYSegment;
        vec2 ux = vec2(xs.y + (l.x - xs.x) * xs.z, xs.z);
        vec2 vy = vec2(ys.y + (l.y - ys.x) * ys.z, ys.z);
  #endif
        vec2 uv = vec2(ux.x, vy.x);
  #ifdef LK_LOD
        float su = ux.y, sv = vy.y;
        // QuadCoverage.lod
        float dudx = su * jac.x, dvdx = sv * jac.y, dudy = su * jac.z, dvdy = sv * jac.w;
        float rho = max(dudx * dudx + dvdx * dvdx, dudy * dudy + dvdy * dvdy);
        float lod = rho > 0.0 ? 0.5 * log2(rho) : -1.0e30;
        // 0 nearest, 1 linear, 2 trilinear.
        float filterKind = lod > 0.0 ? rec_minificationFilter : rec_magnificationFilter;
  #else
        // Without LK_LOD every image in the draw minifies and magnifies with the same filter,
        // neither trilinear: the level of detail decides nothing.
        float filterKind = rec_magnificationFilter;
        float lod = 0.0;
  #endif
        vec2 st = uv / u_imageSize;
  #if defined(LK_TRILINEAR)
        vec4 filtered = textureLod(u_image, st, filterKind == 2.0 ? max(lod, 0.0) : 0.0);
  #elif defined(LK_LINEAR)
        vec4 filtered = textureLod(u_image, st, 0.0);
  #endif
  #if defined(LK_NEAREST) && (defined(LK_LINEAR) || defined(LK_TRILINEAR))
        color = filterKind == 0.0 ? nearestTexel(uv) : filtered;
  #elif defined(LK_NEAREST)
        color = nearestTexel(uv);
  #else
        color = filtered;
  #endif
        color *= rec_color;  // ImageFill.modulation: opaque white for contents
    }
#endif
#ifdef LK_PASS
  #ifndef LK_ONE_FILL
    if (fillKind == 2.0)
  #endif
    {
        vec2 uv = (l - rect.xy) * rec_passScale;
        color = passLinear(u_pass, uv);
        if (rec_passHasMask != 0.0) color *= passLinear(u_mask, uv).a;
        if (rec_passCrossfade > 0.0) color = color * (1.0 - rec_passCrossfade) + passLinear(u_mask, uv) * rec_passCrossfade;
        if (rec_passHasTint != 0.0) color = rec_color * color.a;
    }
#endif
    // A fragment without coverage writes transparent black, which source-over blending leaves
    // the target unchanged by, as a discard would. The colour is rounded to the target's 8 bits
    // (ties to even) before blending, as the CPU reference's blend does: llvmpipe does so itself,
    // a GPU that blends at higher precision would not, and the difference compounds through
    // nested offscreen passes.
    o_color = cov > 0.0 ? roundEven(clamp(color * (cov * rec_opacity), 0.0, 1.0) * 255.0) / 255.0 : vec4(0.0);
}
