// Shared prelude (after `#version 300 es` and the variant's #defines): precision, the gl-transitions uniforms,
// Segue's own (segue_ prefix), the output pixel helpers, and the bilinear read that layer.glsl uses where the
// texture unit's filtering cannot be (16-bit planes) or should not be (exact layers' chroma).
precision highp float;
precision highp int;
precision highp usampler2D;

// The gl-transitions uniforms; Segue's own carry the segue_ prefix (user shaders may declare any other name).
uniform float progress;           // 0..1, GLSL mix semantics (0 = only A)
uniform float ratio;              // width / height of the render size
uniform float segue_xfadeProgress; // FFmpeg xfade's progress P = 1 - progress, computed on the host in single precision
                                  //   as xfade does (a compiler may fold 1 - (1 - p) into p, and W(1 - P) is then not xfade's)
uniform vec2 segue_resolution;    // render size in pixels
uniform vec2 segue_direction;     // unit step per axis, x right, y down

uniform vec4 background;          // outside a layer: the edit's background, as R'G'B'A or in the fused pass's values
uniform vec4 segue_black;         // black and white for transitions, as R'G'B'A or in the fused pass's values
uniform vec4 segue_white;
uniform vec4 segue_rowY;          // R'G'B' -> the output's Y'CbCr (OutputYCbCr: BT.709 8-bit or BT.2020 10-bit,
uniform vec4 segue_rowCb;         //   limited range, code / (2^N - 1)): value = dot(row.xyz, R'G'B') + row.w
uniform vec4 segue_rowCr;
uniform mat3 segue_fromOutputMatrix;  // the inverse: R'G'B' = matrix * (Y, Cb, Cr) + offset
uniform vec3 segue_fromOutputOffset;

// The largest code value of the output's planes (2^OUTPUT_BITS - 1) and its neutral chroma, code / that.
const float segue_maxCode = float((1 << OUTPUT_BITS) - 1);
const float segue_neutralChroma = float(128 << (OUTPUT_BITS - 8)) / segue_maxCode;

// The output pixel (column, row; top-left origin) that uv lies in. Positions on a pixel edge (4:2:0 chroma sites
// lie between rows) count for the pixel above / to the left, so a chroma sample takes the decision of the
// top-left pixel of its 2x2 block.
vec2 segue_pixel(vec2 uv) {
    return floor(uv * segue_resolution - 1.0 / 64.0);
}
// uv moved by whole pixels into pixel `pixel` (keeping its place inside the pixel, e.g. a chroma site).
vec2 segue_moved(vec2 uv, vec2 pixel) {
    return uv + (pixel - segue_pixel(uv)) / segue_resolution;
}

// GL_LINEAR + GL_CLAMP_TO_EDGE written out with texelFetch (OpenGL ES 3.0 §3.8.10) for integer textures (9..16-bit
// planes as R16UI, which GL does not filter), returning code values: p in texel units, texel centres at i + 0.5;
// weights from the fraction of p - 0.5.
vec4 bilinearFetchU(usampler2D t, vec2 p) {
    ivec2 n = textureSize(t, 0) - 1;
    vec2 q = p - 0.5;
    vec2 f = q - floor(q);
    ivec2 i = ivec2(floor(q));
    ivec2 i0 = clamp(i, ivec2(0), n), i1 = clamp(i + 1, ivec2(0), n);
    vec4 top = mix(vec4(texelFetch(t, i0, 0)), vec4(texelFetch(t, ivec2(i1.x, i0.y), 0)), f.x);
    vec4 bottom = mix(vec4(texelFetch(t, ivec2(i0.x, i1.y), 0)), vec4(texelFetch(t, i1, 0)), f.x);
    return mix(top, bottom, f.y);
}
// The texel an exact layer reads at position p (texel units): the one containing p, ties (p on a texel edge,
// which exact maps produce at chroma sites) going to the lower index; clamped to the plane.
ivec2 exactTexel(vec2 p, vec2 size) {
    return clamp(ivec2(floor(p - 1.0 / 64.0)), ivec2(0), ivec2(size) - 1);
}
