#version 330 core
// LayerKit quad vertex shader: one instance per DrawQuad, four vertices (a triangle strip).
//
// Every quad's record lives in u_data, an RGBA32F texture read with texelFetch, QUAD_STRIDE
// texels per quad, laid out by QuadRecords.swift (keep the two in step):
//   0..3  transform, local (rebased: relative to the local point under the reference pixel)
//         -> pass pixels, CATransform3D memory order m11 m12 ... m44; mat4(t0, t1, t2, t3) * v
//         then equals the row-vector product v . M
//   4     geometry: expanded local rect (x0, y0, x1, y1), about one pixel beyond the rect so
//         that antialiased edges and pixel centres exactly on an edge get fragments
//   5..16 what the fragment shader needs, passed through as flat varyings (see quad.frag.glsl)
//   17..22 up to eight half-plane clips in pass pixels, (A, B, C) each, relative to the
//         reference pixel: the pixel centre q is kept where A qx + B qy + C >= 0 (GLSL ES
//         uses only the first four; unused ones are (0, 0, 1))
//   23..24 an image's texel map when each axis has one segment: (start, texel, slope) for x,
//         then for y
// The vertex leaves z at 0 so that nothing is near- or far-clipped, while w <= 0 (behind the
// eye) is still clipped by the rasteriser's clipper.
//
// The renderer prepends defines after the version line:
//   LK_CLIP_DISTANCE  desktop GL, a draw with half-planes: they clip the geometry
//                     (gl_ClipDistance, exact in homogeneous space), so a piece of a split layer
//                     rasterises only its part; otherwise (GLSL ES) they go to the fragment
//                     shader as v_h0..v_h2. A draw without half-planes computes none.

#define QUAD_STRIDE 25
#define DATA_WIDTH 1024

uniform highp sampler2D u_data;
uniform int u_firstQuad;     // record index of instance 0 of this draw
uniform vec2 u_passSize;     // pass size in pixels

flat out vec4 v_r0;  // map m0 m1 m2 m3
flat out vec4 v_r1;  // map m4 m5 m6 m7
flat out vec4 v_r2;  // map m8, reference pixel x, y, opacity
flat out vec4 v_r3;  // rect minX, minY, maxX, maxY (rebased)
flat out vec4 v_r4;  // shape kind, antialiased, fill kind, clip count
flat out vec4 v_r5;  // clip start, fill params
flat out vec4 v_r6;  // colour or tint
flat out vec4 v_r7;  // image x map
flat out vec4 v_r8;
flat out vec4 v_r9;  // image x map / y map
flat out vec4 v_r10; // image y map
flat out vec4 v_r11; // image y map, corner radius, border width
flat out vec4 v_r12; // one-segment image map: x start, texel, slope, y start
flat out vec4 v_r13; // y texel, slope
#ifndef LK_CLIP_DISTANCE
flat out vec4 v_h0;  // half-planes 0 and 1 (A B C A / B C), 2 and 3
flat out vec4 v_h1;
flat out vec4 v_h2;
#endif

vec4 fetch(int i) {
    return texelFetch(u_data, ivec2(i % DATA_WIDTH, i / DATA_WIDTH), 0);
}

void main() {
    int base = (u_firstQuad + gl_InstanceID) * QUAD_STRIDE;
    mat4 m = mat4(fetch(base), fetch(base + 1), fetch(base + 2), fetch(base + 3));
    vec4 g = fetch(base + 4);
    vec2 corner = vec2(float(gl_VertexID & 1), float(gl_VertexID >> 1));
    vec2 local = mix(g.xy, g.zw, corner);
    vec4 p = m * vec4(local, 0.0, 1.0);
    // Pixels (top-left origin, y down) -> clip space, in homogeneous coordinates so that the
    // divide by w stays perspective-correct. The framebuffer is bottom-up: pixel row 0 is the
    // top of the picture, NDC y = +1.
    gl_Position = vec4(p.x * 2.0 / u_passSize.x - p.w, p.w - p.y * 2.0 / u_passSize.y, 0.0, p.w);

    vec4 h0 = fetch(base + 17), h1 = fetch(base + 18), h2 = fetch(base + 19);
#ifdef LK_CLIP_DISTANCE
    vec4 h3 = fetch(base + 20), h4 = fetch(base + 21), h5 = fetch(base + 22);
    // A (x/w - rx) + B (y/w - ry) + C >= 0, times w (> 0 wherever anything is drawn).
    vec4 r = fetch(base + 7);
    vec3 ph = vec3(p.x - r.y * p.w, p.y - r.z * p.w, p.w);
    gl_ClipDistance[0] = dot(h0.xyz, ph);
    gl_ClipDistance[1] = dot(vec3(h0.w, h1.xy), ph);
    gl_ClipDistance[2] = dot(vec3(h1.zw, h2.x), ph);
    gl_ClipDistance[3] = dot(h2.yzw, ph);
    gl_ClipDistance[4] = dot(h3.xyz, ph);
    gl_ClipDistance[5] = dot(vec3(h3.w, h4.xy), ph);
    gl_ClipDistance[6] = dot(vec3(h4.zw, h5.x), ph);
    gl_ClipDistance[7] = dot(h5.yzw, ph);
#else
    v_h0 = h0; v_h1 = h1; v_h2 = h2;
#endif

    v_r0 = fetch(base + 5);
    v_r1 = fetch(base + 6);
    v_r2 = fetch(base + 7);
    v_r3 = fetch(base + 8);
    v_r4 = fetch(base + 9);
    v_r5 = fetch(base + 10);
    v_r6 = fetch(base + 11);
    v_r7 = fetch(base + 12);
    v_r8 = fetch(base + 13);
    v_r9 = fetch(base + 14);
    v_r10 = fetch(base + 15);
    v_r11 = fetch(base + 16);
    v_r12 = fetch(base + 23);
    v_r13 = fetch(base + 24);
}
