// Picture effects (included when a layer has one; each layer's effectsLAYER, written by ShaderLibrary, calls these in
// the item's order on unpremultiplied R'G'B' and alpha). The Swift twins are ColourAdjustment.apply, CubeLUT.apply and
// ChromaKey.apply (the reference): keep them alike step by step.
precision highp sampler3D;

// ColourAdjustment: u = (brightness, contrast, linear?, 0, saturate matrix 3x3 row-major, hue-rotate matrix 3x3,
// linear gains rgb, 0, 0, 0); each step clamped to 0..1 as SVG filter primitives clamp (W3C Filter Effects).
vec3 segue_colourAdjust(vec3 c, float u[28]) {
    c = clamp(c * u[0], 0.0, 1.0);
    c = clamp((c - 0.5) * u[1] + 0.5, 0.0, 1.0);
    c = clamp(vec3(u[4] * c.r + u[5] * c.g + u[6] * c.b, u[7] * c.r + u[8] * c.g + u[9] * c.b,
                   u[10] * c.r + u[11] * c.g + u[12] * c.b), 0.0, 1.0);
    c = clamp(vec3(u[13] * c.r + u[14] * c.g + u[15] * c.b, u[16] * c.r + u[17] * c.g + u[18] * c.b,
                   u[19] * c.r + u[20] * c.g + u[21] * c.b), 0.0, 1.0);
    if (u[2] != 0.0) {
        vec3 l = segue_bt1886EOTF(c) * vec3(u[22], u[23], u[24]);
        c = clamp(segue_bt1886InverseEOTF(l), 0.0, 1.0);
    }
    return c;
}

// CubeLUT: position s = clamp((c - lo) * scale, 0, size - 1); prev = floor(s), next = min(prev + 1, size - 1).
// A 1D table is a 2D texture of rows of 4096 entries; a 3D table a 3D texture (x red, y green, z blue).
vec3 segue_lut1dAt(highp sampler2D t, int i) { return texelFetch(t, ivec2(i % 4096, i / 4096), 0).rgb; }
vec3 segue_lut1d(highp sampler2D t, vec3 c, vec3 lo, vec3 scale, float size) {
    vec3 s = clamp((c - lo) * scale, 0.0, size - 1.0);
    ivec3 p = ivec3(s), n = min(p + 1, ivec3(int(size) - 1));
    vec3 d = s - vec3(p);
    vec3 a = vec3(segue_lut1dAt(t, p.x).r, segue_lut1dAt(t, p.y).g, segue_lut1dAt(t, p.z).b);
    vec3 b = vec3(segue_lut1dAt(t, n.x).r, segue_lut1dAt(t, n.y).g, segue_lut1dAt(t, n.z).b);
    return a + (b - a) * d;
}

// FFmpeg vf_lut3d.c interp_tetrahedral: the tetrahedron is chosen by the order of the fractions (its six cases, as
// the axes taken largest first, ties broken as FFmpeg's cases break them: CubeLUT.tetrahedron); from c000, step along
// the largest axis, then the next, to c111.
ivec3 segue_tetrahedron(vec3 d) {
    if (d.r > d.g) return d.g > d.b ? ivec3(0, 1, 2) : d.r > d.b ? ivec3(0, 2, 1) : ivec3(2, 0, 1);
    return d.b > d.g ? ivec3(2, 1, 0) : d.b > d.r ? ivec3(1, 2, 0) : ivec3(1, 0, 2);
}
vec3 segue_lut3d(highp sampler3D t, vec3 c, vec3 lo, vec3 scale, float size) {
    vec3 s = clamp((c - lo) * scale, 0.0, size - 1.0);
    ivec3 p = ivec3(s), n = min(p + 1, ivec3(int(size) - 1));
    vec3 d = s - vec3(p);
    ivec3 o = segue_tetrahedron(d);
    ivec3 v1 = p;
    v1[o.x] = n[o.x];
    ivec3 v2 = v1;
    v2[o.y] = n[o.y];
    return (1.0 - d[o.x]) * texelFetch(t, p, 0).rgb + (d[o.x] - d[o.y]) * texelFetch(t, v1, 0).rgb
        + (d[o.y] - d[o.z]) * texelFetch(t, v2, 0).rgb + d[o.z] * texelFetch(t, n, 0).rgb;
}

// ChromaKey: u = (key Cb, key Cr, similarity, smoothness, spill). Cb, Cr: BT.709 at studio scale (OBS's cb_v4, cr_v4,
// centred); d = sqrt((dCb^2 + dCr^2) / 2) as FFmpeg's vf_chromakey; alpha ramp over smoothness (FFmpeg's blend), a step
// at or below 0.0001; spill as OBS: towards BT.709 luma by 1 - clamp((d - similarity) / spill)^1.5, none at spill 0.
vec4 segue_chromaKey(vec4 c, float u[5]) {
    vec2 ch = vec2(dot(c.rgb, vec3(-0.100644, -0.338572, 0.439216)), dot(c.rgb, vec3(0.439216, -0.398942, -0.040274)));
    vec2 delta = ch - vec2(u[0], u[1]);
    float d = sqrt((delta.x * delta.x + delta.y * delta.y) / 2.0);
    float base = d - u[2];
    float key = u[3] > 0.0001 ? clamp(base / u[3], 0.0, 1.0) : (base > 0.0 ? 1.0 : 0.0);
    vec3 rgb = c.rgb;
    if (u[4] > 0.0) {
        float t = clamp(base / u[4], 0.0, 1.0), s = t * sqrt(t);
        float y = dot(rgb, vec3(0.2126, 0.7152, 0.0722));
        rgb = y + (rgb - y) * s;
    }
    return vec4(rgb, c.a * key);
}

// Vignette: u = (amount, radius); R'G'B' times 1 - amount * smoothstep(radius, 1, d), d the distance of the picture
// position from its centre over the half-diagonal (0 centre, 1 corners).
vec3 segue_vignette(vec3 c, vec2 position, float u[2]) {
    vec2 q = position * 2.0 - 1.0;
    float d = sqrt(q.x * q.x + q.y * q.y) / sqrt(2.0);
    float t = clamp((d - u[1]) / (1.0 - u[1]), 0.0, 1.0);
    return c * (1.0 - u[0] * (t * t * (3.0 - 2.0 * t)));
}
