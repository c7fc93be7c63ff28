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
uniform vec2 segue_chromaSite;
#if OUTPUT == 2
layout(location = 0) out vec4 fragCb;
layout(location = 1) out vec4 fragCr;
#else
out vec4 fragColor;
#endif

// The output's luma at pos (output pixels, centres at k + 0.5).
float lumaAt(vec2 pos) {
    vec3 c = transition(pos / segue_resolution).rgb;
#if FUSED
    return c.r;
#else
    return segue_toYCbCr(c).x;
#endif
}
// The output's Cb, Cr at pos.
vec2 chromaAt(vec2 pos) {
    vec3 c = transition(pos / segue_resolution).rgb;
#if FUSED
    return c.rg;
#else
    return segue_toYCbCr(c).yz;
#endif
}

#if OUTPUT_BITS == 10
// A 10-bit code value v * 1023 as two unorm bytes (low, high).
vec2 segue_bytes10(float v) {
    float c = floor(clamp(v, 0.0, 1.0) * 1023.0 + 0.5);
    float hi = floor(c / 256.0);
    return vec2(c - hi * 256.0, hi) / 255.0;
}
#endif

void main() {
#ifdef SEGUE_GLOBALS
    segue_initGlobals();   // a gl-transitions shader's global initialisers (GLTransitionHost)
#endif
#if OUTPUT == 0 && LINEAR
    vec4 c = transition(gl_FragCoord.xy / segue_resolution);
    fragColor = vec4(segue_outputInverseEOTF(c.rgb), c.a);
#elif OUTPUT == 0
    fragColor = transition(gl_FragCoord.xy / segue_resolution);
#elif OUTPUT == 1 && OUTPUT_BITS == 10
    float x = floor(gl_FragCoord.x) * 2.0 + 0.5, y = gl_FragCoord.y;
    fragColor = vec4(segue_bytes10(lumaAt(vec2(x, y))), segue_bytes10(lumaAt(vec2(x + 1.0, y))));
#elif OUTPUT == 1
    float x = floor(gl_FragCoord.x) * 4.0 + 0.5, y = gl_FragCoord.y;
    fragColor = vec4(lumaAt(vec2(x, y)), lumaAt(vec2(x + 1.0, y)), lumaAt(vec2(x + 2.0, y)), lumaAt(vec2(x + 3.0, y)));
#elif OUTPUT_BITS == 10
    float x = floor(gl_FragCoord.x) * 4.0 + 0.5 + segue_chromaSite.x, y = floor(gl_FragCoord.y) * 2.0 + 0.5 + segue_chromaSite.y;
    vec2 c0 = chromaAt(vec2(x, y)), c1 = chromaAt(vec2(x + 2.0, y));
    fragCb = vec4(segue_bytes10(c0.x), segue_bytes10(c1.x));
    fragCr = vec4(segue_bytes10(c0.y), segue_bytes10(c1.y));
#else
    float x = floor(gl_FragCoord.x) * 8.0 + 0.5 + segue_chromaSite.x, y = floor(gl_FragCoord.y) * 2.0 + 0.5 + segue_chromaSite.y;
    vec2 c0 = chromaAt(vec2(x, y)), c1 = chromaAt(vec2(x + 2.0, y)), c2 = chromaAt(vec2(x + 4.0, y)), c3 = chromaAt(vec2(x + 6.0, y));
    fragCb = vec4(c0.x, c1.x, c2.x, c3.x);
    fragCr = vec4(c0.y, c1.y, c2.y, c3.y);
#endif
}
