#version 330 core
// A box downsample (RenderPass.Content.downsample): pixel (x, y), rows counted from the top, is
// the mean of the source's u_factor x u_factor block from (u_factor·x, u_factor·y), where texels
// outside the source are transparent. Both passes are stored bottom-up, so picture row r of a
// pass of height h is framebuffer row h - 1 - r. The block is summed row by row from its top,
// left to right, as the CPU reference sums it.

uniform highp sampler2D u_source; // the pass being reduced
uniform int u_factor;             // block side in source texels
uniform int u_height;             // the height of the pass being drawn

layout(location = 0) out vec4 o_color;

void main() {
    ivec2 size = textureSize(u_source, 0);
    ivec2 p = ivec2(gl_FragCoord.xy);
    int row = u_height - 1 - p.y;
    vec4 acc = vec4(0.0);
    for (int j = 0; j < u_factor; j++) {
        int sy = row * u_factor + j;
        if (sy >= size.y) break;
        for (int i = 0; i < u_factor; i++) {
            int sx = p.x * u_factor + i;
            if (sx >= size.x) break;
            acc += texelFetch(u_source, ivec2(sx, size.y - 1 - sy), 0);
        }
    }
    o_color = acc / float(u_factor * u_factor);
}
