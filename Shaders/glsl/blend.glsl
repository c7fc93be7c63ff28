// Blend modes (BLEND, BlendMode.shaderID; included only when the pass's layer blends, so normal programs are as
// before): W3C Compositing and Blending Level 1, §10, in R'G'B'. The Swift twin, BlendMode.swift, is the reference;
// keep the two alike formula by formula.
// 1 multiply, 2 screen, 3 overlay, 4 darken, 5 lighten, 6 color-dodge, 7 color-burn, 8 hard-light, 9 soft-light,
// 10 difference, 11 exclusion, 12 hue, 13 saturation, 14 color, 15 luminosity, 16 add.

float segue_hardLight(float cb, float cs) {
    return cs <= 0.5 ? cb * (2.0 * cs) : cb + (2.0 * cs - 1.0) - cb * (2.0 * cs - 1.0);
}

// B(Cb, Cs) of a separable mode for one channel (W3C §10.2).
float segue_separable(float cb, float cs) {
#if BLEND == 1
    return cb * cs;
#elif BLEND == 2
    return cb + cs - cb * cs;
#elif BLEND == 3
    return segue_hardLight(cs, cb);
#elif BLEND == 4
    return min(cb, cs);
#elif BLEND == 5
    return max(cb, cs);
#elif BLEND == 6
    if (cb == 0.0) return 0.0;
    if (cs == 1.0) return 1.0;
    return min(1.0, cb / (1.0 - cs));
#elif BLEND == 7
    if (cb == 1.0) return 1.0;
    if (cs == 0.0) return 0.0;
    return 1.0 - min(1.0, (1.0 - cb) / cs);
#elif BLEND == 8
    return segue_hardLight(cb, cs);
#elif BLEND == 9
    if (cs <= 0.5) return cb - (1.0 - 2.0 * cs) * cb * (1.0 - cb);
    float d = cb <= 0.25 ? ((16.0 * cb - 12.0) * cb + 4.0) * cb : sqrt(cb);
    return cb + (2.0 * cs - 1.0) * (d - cb);
#elif BLEND == 10
    return abs(cb - cs);
#elif BLEND == 11
    return cb + cs - 2.0 * cb * cs;
#elif BLEND == 16
    return min(1.0, cb + cs);
#else
    return cs;
#endif
}

// W3C §10.3: Lum, ClipColor, SetLum, Sat, SetSat.
float segue_lum(vec3 c) { return 0.3 * c.r + 0.59 * c.g + 0.11 * c.b; }
vec3 segue_clipColor(vec3 c) {
    float l = segue_lum(c), n = min(min(c.r, c.g), c.b), x = max(max(c.r, c.g), c.b);
    if (n < 0.0) c = l + (c - l) * l / (l - n);
    if (x > 1.0) c = l + (c - l) * (1.0 - l) / (x - l);
    return c;
}
vec3 segue_setLum(vec3 c, float l) { return segue_clipColor(c + (l - segue_lum(c))); }
float segue_sat(vec3 c) { return max(max(c.r, c.g), c.b) - min(min(c.r, c.g), c.b); }
vec3 segue_setSat(vec3 c, float s) {
    float n = min(min(c.r, c.g), c.b), x = max(max(c.r, c.g), c.b);
    if (!(x > n)) return vec3(0.0);
    return (c - n) * s / (x - n);
}

// B(Cb, Cs) for one colour.
vec3 segue_blendColour(vec3 cb, vec3 cs) {
#if BLEND == 12
    return segue_setLum(segue_setSat(cs, segue_sat(cb)), segue_lum(cb));
#elif BLEND == 13
    return segue_setLum(segue_setSat(cb, segue_sat(cs)), segue_lum(cb));
#elif BLEND == 14
    return segue_setLum(cs, segue_lum(cb));
#elif BLEND == 15
    return segue_setLum(cb, segue_lum(cs));
#else
    return vec3(segue_separable(cb.r, cs.r), segue_separable(cb.g, cs.g), segue_separable(cb.b, cs.b));
#endif
}

#if OUTPUT == 1 || OUTPUT == 2
// The backdrop of the video outputs (8-bit): the targets' texels before this pass, four samples a texel (main.glsl),
// Y' (segue_backdropY) and Cb, Cr (segue_backdropCb, Cr); read back to R'G'B' by the output's inverse matrix, opaque.
// At a luma sample its Y' and its 2x2 block's Cb, Cr; at a chroma site the block's mean Y'. (BlendBackdrop.swift.)
uniform sampler2D segue_backdropY;
uniform sampler2D segue_backdropCb;
uniform sampler2D segue_backdropCr;
float segue_backdropSample(sampler2D s, ivec2 p) {
    vec4 t = texelFetch(s, ivec2(p.x / 4, p.y), 0);
    int k = p.x - (p.x / 4) * 4;
    return k == 0 ? t.r : (k == 1 ? t.g : (k == 2 ? t.b : t.a));
}
vec4 segue_backdrop(vec2 pos) {
    ivec2 p = ivec2(floor(pos));
    ivec2 q = p / 2;
#if OUTPUT == 1
    float y = segue_backdropSample(segue_backdropY, p);
#else
    ivec2 b = q * 2;
    float y = 0.25 * ((segue_backdropSample(segue_backdropY, b) + segue_backdropSample(segue_backdropY, b + ivec2(1, 0))
                       + segue_backdropSample(segue_backdropY, b + ivec2(0, 1)) + segue_backdropSample(segue_backdropY, b + ivec2(1, 1))));
#endif
    vec3 ycc = vec3(y, segue_backdropSample(segue_backdropCb, q), segue_backdropSample(segue_backdropCr, q));
    return vec4(segue_fromOutputMatrix * ycc + segue_fromOutputOffset, 1.0);
}
#endif

// The premultiplied pass colour s blended with the premultiplied backdrop b, ready for s' + (1 - s.a) * b:
// s.a * ((1 - b.a) * Cs + b.a * B(Cb, Cs)), alpha s.a (BlendMode.premultipliedSource).
vec4 segue_blendSource(vec4 s, vec4 b) {
    if (s.a <= 0.0) return s;
    vec3 cs = s.rgb / s.a;
    vec3 cb = b.a > 0.0 ? b.rgb / b.a : vec3(0.0);
    return vec4(((1.0 - b.a) * cs + b.a * segue_blendColour(cb, cs)) * s.a, s.a);
}
