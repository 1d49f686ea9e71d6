#version 330 core
// One triangle that covers the whole viewport (vertices 0, 1, 2; no attributes), for passes
// that compute every pixel (blur).

void main() {
    vec2 p = vec2(float((gl_VertexID & 1) * 4 - 1), float((gl_VertexID >> 1) * 4 - 1));
    gl_Position = vec4(p, 0.0, 1.0);
#ifdef LK_CLIP_DISTANCE
    // The quad program's clip planes stay enabled: keep everything.
    gl_ClipDistance[0] = 1.0;
    gl_ClipDistance[1] = 1.0;
    gl_ClipDistance[2] = 1.0;
    gl_ClipDistance[3] = 1.0;
#endif
}
