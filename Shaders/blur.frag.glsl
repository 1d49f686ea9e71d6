#version 330 core
// One direction of a Gaussian blur (RenderPass.Content.blur): out = sum over k in -n...n of
// weights[|k|] * src[x + k] (along x or y), where texels outside the source are transparent.
// Source and target have the same size and orientation, so gl_FragCoord addresses both.

uniform highp sampler2D u_data;   // the weights (DATA_WIDTH texels a row, from the prelude), four per texel from u_weightStart
uniform highp sampler2D u_source; // the pass being blurred
uniform int u_weightStart;        // texel index of weights[0..3]
uniform int u_taps;               // n: weights[0...n]
uniform ivec2 u_direction;        // (1, 0) or (0, 1)

layout(location = 0) out vec4 o_color;

float weight(int k) {
    int i = u_weightStart + k / 4;
    return texelFetch(u_data, ivec2(i % DATA_WIDTH, i / DATA_WIDTH), 0)[k % 4];
}

void main() {
    ivec2 size = textureSize(u_source, 0);
    ivec2 p = ivec2(gl_FragCoord.xy);
    vec4 acc = vec4(0.0);
    for (int k = -u_taps; k <= u_taps; k++) {
        ivec2 s = p + u_direction * k;
        if (s.x < 0 || s.y < 0 || s.x >= size.x || s.y >= size.y) continue;
        acc += texelFetch(u_source, s, 0) * weight(k < 0 ? -k : k);
    }
    o_color = acc;
}
