// Entry point; uv has a top-left origin because rows are read back top first.
// OUTPUT 0: R'G'B'A at each pixel centre (previews).
// OUTPUT 1: the output's luma, BT.709 limited range, four samples per fragment: fragment (i, j) of an RGBA8
//           target ceil(W / 4) wide holds luma samples 4i ... 4i + 3 of row j, so the target's bytes are the
//           luma plane's (on llvmpipe the cost is mostly per fragment).
// OUTPUT 2: Cb and Cr, four samples per fragment likewise, into two RGBA8 targets ceil(W / 8) wide, H / 2
//           high. Chroma sample (i, j) takes the composite at its site: (2i + 0.5, 2j + 0.5) + segue_chromaSite in
//           output pixels (left: (0, 0.5)).
// OUTPUT_BITS 10 (HDR output, yuv420p10le): two samples per fragment instead, each as its low and high byte, so
//           the targets (ceil(W / 2) and ceil(W / 4) wide) again hold the planes' bytes exactly; the values are
//           code / 1023, rounded to whole codes here.
// FUSED: the layers already give the output's values (LayerColourMap; transitions that only mix and select
//        colours); otherwise the composite is R'G'B' and is converted here (segue_toYCbCr, OutputYCbCr rows:
//        code / (2^N - 1)).
// LINEAR: the transition mixed in linear light (its lookups went through the output's EOTF, segue_outputEOTF):
//        the composite goes back through the inverse (in segue_toYCbCr, and for the R'G'B'A previews here).
// OUTPUT 3: the composite's alpha at each pixel centre, four samples per fragment as OUTPUT 1 lays out luma (outputs
//           that keep alpha, 8-bit); OUTPUT 4: its alpha at each chroma site, four per fragment as one chroma plane.
//           Alpha composites as colour does: a + (1 - a) * below. OUTPUT 0 writes it too (1 over an opaque background).
// OVER_BELOW 0: the frame's first pass, over the background across the whole frame: the pass's premultiplied colour
//           c becomes c + (1 - c.a) * background (outside its pictures the layers give the background already).
// OVER_BELOW 1: a later pass, blended into what the passes before it wrote, inside segue_rect only: the targets'
//           texels before this pass are bound as segue_below0 (luma or RGBA; chroma: Cb) and segue_below1 (Cr), and
//           each sample becomes value + (1 - alpha) * below, value the pass's premultiplied value there. Outside
//           segue_rect (whole output pixels, the chroma site counting for its block's top-left pixel) the pass is
//           transparent, so the result does not depend on how much the scissor draws.
// BLEND (blend.glsl, defined only for a later pass whose layer blends): the pass colour is first blended with what is
//           below it (segue_blendSource): OUTPUT 0 with the R'G'B'A below; OUTPUT 1 and 2 (8-bit) with the planes
//           before the pass read back to R'G'B' (segue_backdrop). Alpha outputs and 10-bit ones refuse such passes.
// MATTE (defined only for a later pass a track matte masks; MatteMode.shaderID: 1 alpha, 2 luma, 3 alpha-inverted,
//           4 luma-inverted): layer.glsl is included a third time, spelled Matte, and the pass's premultiplied value
//           (colour and alpha, every output) is multiplied by segue_matteValue of the matte's R'G'B'A there.
uniform vec2 segue_chromaSite;
#if OVER_BELOW
uniform vec4 segue_rect;        // x0, y0, x1, y1 in output pixels
uniform sampler2D segue_below0;
uniform sampler2D segue_below1;
#endif
#if OUTPUT == 2
layout(location = 0) out vec4 fragCb;
layout(location = 1) out vec4 fragCr;
#else
out vec4 fragColor;
#endif

#if LINEAR
// Back from linear light (the transition's lookups went through segue_outputEOTF), premultiplied.
vec4 segue_fromLinear(vec4 c) {
    if (c.a >= 1.0) return vec4(segue_outputInverseEOTF(c.rgb), c.a);
    if (c.a <= 0.0) return vec4(0.0);
    return vec4(segue_outputInverseEOTF(c.rgb / c.a) * c.a, c.a);
}
#endif

#ifdef MATTE
// The mask value of the matte's premultiplied R'G'B'A c (MatteMode.value): alpha, or BT.709 Y' times alpha; inverted 1 - m.
float segue_matteValue(vec4 c) {
#if MATTE == 2 || MATTE == 4
    float m = 0.2126 * c.r + 0.7152 * c.g + 0.0722 * c.b;
#else
    float m = c.a;
#endif
#if MATTE >= 3
    return 1.0 - m;
#else
    return m;
#endif
}
#endif

// The pass's colour at pos (output pixels, centres at k + 0.5): premultiplied, gamma-encoded, in the pass's values
// (FUSED: the output's luma, or Cb and Cr; else R'G'B'), composited over the background in the first pass.
vec4 passColour(vec2 pos) {
#if OVER_BELOW
    vec2 px = floor(pos - 1.0 / 64.0);
    if (px.x < segue_rect.x || px.y < segue_rect.y || px.x >= segue_rect.z || px.y >= segue_rect.w) return vec4(0.0);
#endif
    vec4 c = transition(pos / segue_resolution);
#if LINEAR
    c = segue_fromLinear(c);
#endif
#ifdef MATTE
    c *= segue_matteValue(getMatteColor(pos / segue_resolution));
#endif
#if !OVER_BELOW
    c += (1.0 - c.a) * background;
#endif
    return c;
}

// The output's luma at pos: (premultiplied value, alpha).
vec2 lumaAt(vec2 pos) {
    vec4 c = passColour(pos);
#if defined(BLEND) && (OUTPUT == 1 || OUTPUT == 2)
    c = segue_blendSource(c, segue_backdrop(pos));
#endif
#if FUSED
    return vec2(c.r, c.a);
#else
    return vec2(dot(segue_rowY.xyz, c.rgb) + segue_rowY.w * c.a, c.a);
#endif
}
// The output's Cb, Cr at pos, premultiplied, and alpha.
vec3 chromaAt(vec2 pos) {
    vec4 c = passColour(pos);
#if defined(BLEND) && (OUTPUT == 1 || OUTPUT == 2)
    c = segue_blendSource(c, segue_backdrop(pos));
#endif
#if FUSED
    return vec3(c.rg, c.a);
#else
    return vec3(dot(segue_rowCb.xyz, c.rgb) + segue_rowCb.w * c.a, dot(segue_rowCr.xyz, c.rgb) + segue_rowCr.w * c.a, c.a);
#endif
}

// A sample over what is below it: value + (1 - alpha) * below (the first pass is opaque: alpha 1).
float segue_over(vec2 c, float below) { return c.x + (1.0 - c.y) * below; }

// The composite's alpha at pos over the alpha below it.
float segue_alphaOver(vec2 pos, float below) { float a = passColour(pos).a; return a + (1.0 - a) * below; }

#if OUTPUT_BITS == 10
// A 10-bit code value v * 1023 as two unorm bytes (low, high).
vec2 segue_bytes10(float v) {
    float c = floor(clamp(v, 0.0, 1.0) * 1023.0 + 0.5);
    float hi = floor(c / 256.0);
    return vec2(c - hi * 256.0, hi) / 255.0;
}
// The value (code / 1023) of the 10-bit sample stored as bytes (low, high).
float segue_value10(vec2 bytes) {
    vec2 b = floor(bytes * 255.0 + 0.5);
    return (b.x + b.y * 256.0) / 1023.0;
}
#endif

void main() {
#ifdef SEGUE_GLOBALS
    segue_initGlobals();   // a gl-transitions shader's global initialisers (GLTransitionHost)
#endif
#if OVER_BELOW
    vec4 below0 = texelFetch(segue_below0, ivec2(gl_FragCoord.xy), 0);
#if OUTPUT == 2
    vec4 below1 = texelFetch(segue_below1, ivec2(gl_FragCoord.xy), 0);
#endif
#else
    vec4 below0 = vec4(0.0), below1 = vec4(0.0);
#endif
#if OUTPUT == 0
    vec4 c = passColour(gl_FragCoord.xy);
#ifdef BLEND
    c = segue_blendSource(c, below0);
#endif
    fragColor = vec4(c.rgb + (1.0 - c.a) * below0.rgb, c.a + (1.0 - c.a) * below0.a);
#elif OUTPUT == 1 && OUTPUT_BITS == 10
    float x = floor(gl_FragCoord.x) * 2.0 + 0.5, y = gl_FragCoord.y;
    fragColor = vec4(segue_bytes10(segue_over(lumaAt(vec2(x, y)), segue_value10(below0.rg))),
                     segue_bytes10(segue_over(lumaAt(vec2(x + 1.0, y)), segue_value10(below0.ba))));
#elif OUTPUT == 1
    float x = floor(gl_FragCoord.x) * 4.0 + 0.5, y = gl_FragCoord.y;
    fragColor = vec4(segue_over(lumaAt(vec2(x, y)), below0.r), segue_over(lumaAt(vec2(x + 1.0, y)), below0.g),
                     segue_over(lumaAt(vec2(x + 2.0, y)), below0.b), segue_over(lumaAt(vec2(x + 3.0, y)), below0.a));
#elif OUTPUT == 3
    float x = floor(gl_FragCoord.x) * 4.0 + 0.5, y = gl_FragCoord.y;
    fragColor = vec4(segue_alphaOver(vec2(x, y), below0.r), segue_alphaOver(vec2(x + 1.0, y), below0.g),
                     segue_alphaOver(vec2(x + 2.0, y), below0.b), segue_alphaOver(vec2(x + 3.0, y), below0.a));
#elif OUTPUT == 4
    float x = floor(gl_FragCoord.x) * 8.0 + 0.5 + segue_chromaSite.x, y = floor(gl_FragCoord.y) * 2.0 + 0.5 + segue_chromaSite.y;
    fragColor = vec4(segue_alphaOver(vec2(x, y), below0.r), segue_alphaOver(vec2(x + 2.0, y), below0.g),
                     segue_alphaOver(vec2(x + 4.0, y), below0.b), segue_alphaOver(vec2(x + 6.0, y), below0.a));
#elif OUTPUT_BITS == 10
    float x = floor(gl_FragCoord.x) * 4.0 + 0.5 + segue_chromaSite.x, y = floor(gl_FragCoord.y) * 2.0 + 0.5 + segue_chromaSite.y;
    vec3 c0 = chromaAt(vec2(x, y)), c1 = chromaAt(vec2(x + 2.0, y));
    fragCb = vec4(segue_bytes10(segue_over(c0.xz, segue_value10(below0.rg))), segue_bytes10(segue_over(c1.xz, segue_value10(below0.ba))));
    fragCr = vec4(segue_bytes10(segue_over(c0.yz, segue_value10(below1.rg))), segue_bytes10(segue_over(c1.yz, segue_value10(below1.ba))));
#else
    float x = floor(gl_FragCoord.x) * 8.0 + 0.5 + segue_chromaSite.x, y = floor(gl_FragCoord.y) * 2.0 + 0.5 + segue_chromaSite.y;
    vec3 c0 = chromaAt(vec2(x, y)), c1 = chromaAt(vec2(x + 2.0, y)), c2 = chromaAt(vec2(x + 4.0, y)), c3 = chromaAt(vec2(x + 6.0, y));
    fragCb = vec4(segue_over(c0.xz, below0.r), segue_over(c1.xz, below0.g), segue_over(c2.xz, below0.b), segue_over(c3.xz, below0.a));
    fragCr = vec4(segue_over(c0.yz, below1.r), segue_over(c1.yz, below1.g), segue_over(c2.yz, below1.b), segue_over(c3.yz, below1.a));
#endif
}
