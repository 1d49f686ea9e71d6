#version 330 core
// LayerKit quad vertex shader: one instance per DrawQuad, four vertices (a triangle strip).
//
// Every quad's record lives in u_data, an RGBA32F texture read with texelFetch, QUAD_STRIDE
// texels per quad. Its fields are described once, in Sources/GLRenderer/QuadRecordLayout.swift,
// which the renderer turns into a prelude after the version line: REC_name_TEXEL is a field's
// texel, fetch_name(base) reads a field of up to four floats, and REC_FORWARD(base) copies every
// texel the fragment shader reads into its flat varying (v_recN, unpacked there as rec_name).
// The vertex leaves z at 0 so that nothing is near- or far-clipped, while w <= 0 (behind the
// eye) is still clipped by the rasteriser's clipper.
//
// The renderer prepends defines after the version line:
//   LK_CLIP_DISTANCE  desktop GL, a draw with half-planes: they clip the geometry
//                     (gl_ClipDistance, exact in homogeneous space), so a piece of a split layer
//                     rasterises only its part; otherwise (GLSL ES) they go to the fragment
//                     shader as v_h0..v_h2. A draw without half-planes computes none.
//   LK_HOLE           some border's hole is left out (FrameData.hole): an instance is a ring of
//                     ten vertices, not a quad of four

uniform highp sampler2D u_data;
uniform int u_firstQuad;     // record index of instance 0 of this draw
// A replicated run (CopyRun): x quads per copy, drawn once per copy, instance i drawing record
// u_firstQuad + i % x for copy i / x, whose record of COPY_STRIDE texels starts at texel
// y + (i / x) * COPY_STRIDE: copy 0's pixels -> the copy's as an affine map (a b c d, e f) and its
// inverse (a b c d e f), then the premultiplied factors of its colours. x = 0: no run.
uniform ivec2 u_copies;
uniform vec2 u_passSize;     // pass size in pixels

#ifndef LK_CLIP_DISTANCE
flat out vec4 v_h0;  // half-planes 0 and 1 (A B C A / B C), 2 and 3
flat out vec4 v_h1;
flat out vec4 v_h2;
#endif

vec4 fetch(int i) {
    return texelFetch(u_data, ivec2(i % DATA_WIDTH, i / DATA_WIDTH), 0);
}

void main() {
    int instance = gl_InstanceID, copy = 0;
    if (u_copies.x > 0) {
        copy = instance / u_copies.x;
        instance -= copy * u_copies.x;
    }
    int base = (u_firstQuad + instance) * QUAD_STRIDE;
    int copyBase = u_copies.y + copy * COPY_STRIDE;
    int t = base + REC_transform_TEXEL;
    mat4 m = mat4(fetch(t), fetch(t + 1), fetch(t + 2), fetch(t + 3));
    vec4 g = fetch_geometry(base);
#ifdef LK_HOLE
    // A border around a hole (FrameData.hole) is a strip of ten vertices around the ring, outer
    // and inner corner by turns (corners 0 0, 1 0, 1 1, 0 1 and back to 0 0): the hole's
    // pixels, which the quad would draw transparent, get no fragments. Any other quad of the
    // draw is its four vertices as below, the last repeated (triangles of no area draw nothing).
    vec4 hole = fetch_hole(base);
    vec2 local;
    if (hole.x < hole.z) {
        int k = (gl_VertexID >> 1) & 3;
        vec2 corner = vec2(float(k == 1 || k == 2), float(k >= 2));
        local = (gl_VertexID & 1) != 0 ? mix(hole.xy, hole.zw, corner) : mix(g.xy, g.zw, corner);
    } else {
        int v = min(gl_VertexID, 3);
        local = mix(g.xy, g.zw, vec2(float(v & 1), float(v >> 1)));
    }
#else
    vec2 corner = vec2(float(gl_VertexID & 1), float(gl_VertexID >> 1));
    vec2 local = mix(g.xy, g.zw, corner);
#endif
    vec4 p = m * vec4(local, 0.0, 1.0);
    vec4 c0 = vec4(1.0, 0.0, 0.0, 1.0), c1 = vec4(0.0), c2 = vec4(0.0);
    if (u_copies.x > 0) {
        c0 = fetch(copyBase);
        c1 = fetch(copyBase + 1);
        c2 = fetch(copyBase + 2);
        // Affine in pixels, in homogeneous form: w is kept.
        p.xy = vec2(p.x * c0.x + p.y * c0.z + p.w * c1.x, p.x * c0.y + p.y * c0.w + p.w * c1.y);
    }
    // Pixels (top-left origin, y down) -> clip space, in homogeneous coordinates so that the
    // divide by w stays perspective-correct. The framebuffer is bottom-up: pixel row 0 is the
    // top of the picture, NDC y = +1.
    gl_Position = vec4(p.x * 2.0 / u_passSize.x - p.w, p.w - p.y * 2.0 / u_passSize.y, 0.0, p.w);

    // The half-planes, (A, B, C) each, packed across six texels.
    int hp = base + REC_halfPlanes_TEXEL;
    vec4 h0 = fetch(hp), h1 = fetch(hp + 1), h2 = fetch(hp + 2);
#ifdef LK_CLIP_DISTANCE
    vec4 h3 = fetch(hp + 3), h4 = fetch(hp + 4), h5 = fetch(hp + 5);
    // A (x/w - rx) + B (y/w - ry) + C >= 0, times w (> 0 wherever anything is drawn).
    vec2 ref = fetch_referencePixel(base);
    vec3 ph = vec3(p.x - ref.x * p.w, p.y - ref.y * p.w, p.w);
    gl_ClipDistance[0] = dot(h0.xyz, ph);
    gl_ClipDistance[1] = dot(vec3(h0.w, h1.xy), ph);
    gl_ClipDistance[2] = dot(vec3(h1.zw, h2.x), ph);
    gl_ClipDistance[3] = dot(h2.yzw, ph);
    gl_ClipDistance[4] = dot(h3.xyz, ph);
    gl_ClipDistance[5] = dot(vec3(h3.w, h4.xy), ph);
    gl_ClipDistance[6] = dot(vec3(h4.zw, h5.x), ph);
    gl_ClipDistance[7] = dot(h5.yzw, ph);
#else
    v_h0 = h0;
    v_h1 = h1;
    v_h2 = h2;
#endif

    REC_FORWARD(base);
    if (u_copies.x > 0) {
        // The pixel -> local map, [q 1] M with q relative to the reference pixel r: a copy's
        // pixel q maps to copy 0's q0 = q L' + t (L' the inverse map's linear part, t = r L' +
        // (e, f) - r), so its map is [q 1] M' with M' = [L' 0; t 1] M.
        vec3 dx = fetch_mapDx(base), dy = fetch_mapDy(base), o = fetch_mapOrigin(base);
        vec2 r = fetch_referencePixel(base);
        vec2 t = r.x * c1.zw + r.y * c2.xy + c2.zw - r;
        store_mapDx(c1.z * dx + c1.w * dy);
        store_mapDy(c2.x * dx + c2.y * dy);
        store_mapOrigin(t.x * dx + t.y * dy + o);
        store_color(fetch_color(base) * fetch(copyBase + 3));
    }
}
