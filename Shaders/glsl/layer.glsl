// One layer's lookup, included twice with LAYER spelled From (A, outgoing) and To (B, incoming): it defines
// getLAYERColor(uv), the gl-transitions lookup. Rotation, display aspect, fit and colour are fused into it:
// output uv -> stored-picture uv through uLAYERMap, read the planes as decoded, convert Y'CbCr -> R'G'B'.
// LAYER_KIND: 0 RGBA8 (clips libswscale converts), 1 three 8-bit planes (R8), 2 NV12 (R8 + RG8),
//             3 three 9..16-bit planes (R16UI, integer code values).
// LAYER_LUMA, LAYER_CHROMA: whether the luma / chroma planes contribute in this pass (LayerColourMap); a
//              plane that does not is not read.
// LAYER_EXACT: 1 when output pixel centres land on stored texel centres (quarter turns, whole-pixel crops at
//              scale 1): every plane is one texelFetch, no filtering (exactTexel: the texel containing the
//              position; chroma therefore per 2x2 block, as FFmpeg's transpose/crop/colorspace treat it).
// LAYER_CROP: 1 when the layer shows part of its picture (uLAYERCrop is not the whole of it): filtered reads are
//              clamped half a texel inside the crop, so nothing outside it bleeds in.
// Pictures are premultiplied (RGBA pictures with alpha; Y'CbCr pictures are opaque): a layer gives its colour times
// its alpha and uLAYEROpacity, with that alpha: colour = uLAYERMatrix * s + uLAYEROffset * alpha (LayerColourMap).
// LAYER_EFFECTS: 1 when the layer has picture effects (PictureEffect): effectsLAYER(rgba), written by ShaderLibrary
//              from the effects' kinds, applies them in order (effects.glsl) to the unpremultiplied colour and alpha.
// LAYER_TRANSFER: 0 when the layer's colour is affine (its transfer and primaries are the output's: every SDR clip in
//              an SDR edit); else its ColourStage (colour.glsl) from 1 SDR (BT.1886), 2 HLG or 3 PQ R'G'B': linear
//              light, uLAYERScale, uLAYERGamut, segue_gamutMap, the tone curve LAYER_TONE (0 none, 1 clip, 2 reinhard,
//              3 mobius, 4 hable, 5 bt2390; uLAYERTone) on the largest component, segue_outputInverseEOTF.
#if LAYER_KIND == 3
uniform usampler2D uLAYER0;
uniform usampler2D uLAYER1;
uniform usampler2D uLAYER2;
#else
uniform sampler2D uLAYER0;
#if LAYER_KIND != 0
uniform sampler2D uLAYER1;
#endif
#if LAYER_KIND == 1
uniform sampler2D uLAYER2;
#endif
#endif
uniform mat3 uLAYERMap;         // output uv (0..1, top-left origin) -> stored uv
uniform vec2 uLAYERSize;        // stored picture size in luma texels
uniform vec4 uLAYERChroma;      // chroma texel position = luma texel position * .xy + .zw (siting, subsampling)
uniform vec2 uLAYERChromaSize;  // chroma plane size in texels
uniform mat3 uLAYERMatrix;      // colour = uLAYERMatrix * samples + uLAYEROffset (LayerColourMap): R'G'B' (not
uniform vec3 uLAYEROffset;      // clamped), or in fused passes the output's luma (.r) or Cb, Cr (.rg) directly
uniform vec4 uLAYERCrop;        // the part of the stored picture shown, stored uv: (u0, v0, u1, v1)
uniform float uLAYEROpacity;    // multiplies the layer's premultiplied colour and alpha

#if LAYER_TRANSFER != 0
uniform mat3 uLAYERGamut;       // linear input primaries -> output primaries
uniform float uLAYERScale;      // linear input light -> relative to the output's peak
uniform vec4 uLAYERTone;        // the tone curve's constants (ToneMap.parameters)

vec3 transferLAYER(vec3 c) {
#if LAYER_TRANSFER == 1
    vec3 l = segue_bt1886EOTF(max(c, 0.0));
#elif LAYER_TRANSFER == 2
    vec3 l = segue_hlgOOTF(segue_hlgInverseOETF(c));
#else
    vec3 l = segue_pqEOTF(c);
#endif
    l = segue_gamutMap(uLAYERGamut * (l * uLAYERScale), segue_outputLuminance);
#if LAYER_TONE != 0
    float m = max(max(l.r, l.g), max(l.b, 1e-6));
#if LAYER_TONE == 1
    float f = segue_toneMapClip(m);
#elif LAYER_TONE == 2
    float f = segue_toneMapReinhard(m, uLAYERTone);
#elif LAYER_TONE == 3
    float f = segue_toneMapMobius(m, uLAYERTone);
#elif LAYER_TONE == 4
    float f = segue_toneMapHable(m, uLAYERTone);
#else
    float f = segue_toneMapBT2390(m, uLAYERTone);
#endif
    l *= f / m;
#endif
    return segue_outputInverseEOTF(max(l, 0.0));
}
#endif

vec4 sampleLAYER(vec2 st) {
    vec2 position = st;   // the sample's place in its picture (a vignette's)
    vec2 p = st * uLAYERSize;
#if LAYER_CROP && !LAYER_EXACT
    p = clamp(p, uLAYERCrop.xy * uLAYERSize + 0.5, uLAYERCrop.zw * uLAYERSize - 0.5);
    st = p / uLAYERSize;
#endif
    float alpha = 1.0;
#if LAYER_KIND == 0
#if LAYER_EXACT
    vec4 s4 = texelFetch(uLAYER0, exactTexel(p, uLAYERSize), 0);
#else
    vec4 s4 = texture(uLAYER0, st);
#endif
    vec3 s = s4.rgb;
    alpha = s4.a;
#else
    vec2 pc = p * uLAYERChroma.xy + uLAYERChroma.zw;
    vec3 s = vec3(0.0);
#if LAYER_EXACT
    ivec2 ic = exactTexel(pc, uLAYERChromaSize);
#if LAYER_LUMA
    s.x = float(texelFetch(uLAYER0, exactTexel(p, uLAYERSize), 0).r);
#endif
#if LAYER_CHROMA && LAYER_KIND == 2
    s.yz = texelFetch(uLAYER1, ic, 0).rg;
#elif LAYER_CHROMA
    s.y = float(texelFetch(uLAYER1, ic, 0).r);
    s.z = float(texelFetch(uLAYER2, ic, 0).r);
#endif
#elif LAYER_KIND == 3
#if LAYER_LUMA
    s.x = bilinearFetchU(uLAYER0, p).r;
#endif
#if LAYER_CHROMA
    s.yz = vec2(bilinearFetchU(uLAYER1, pc).r, bilinearFetchU(uLAYER2, pc).r);
#endif
#else
#if LAYER_LUMA
    s.x = texture(uLAYER0, st).r;
#endif
    vec2 sc = pc / uLAYERChromaSize;
#if LAYER_CHROMA && LAYER_KIND == 2
    s.yz = texture(uLAYER1, sc).rg;
#elif LAYER_CHROMA
    s.y = texture(uLAYER1, sc).r;
    s.z = texture(uLAYER2, sc).r;
#endif
#endif
#endif
#if LAYER_TRANSFER != 0
    // The stage is not affine: through it unpremultiplied, then premultiplied again.
    if (alpha <= 0.0) return vec4(0.0);
    vec4 c = vec4(transferLAYER(uLAYERMatrix * (s / alpha) + uLAYEROffset) * alpha, alpha);
#else
    vec4 c = vec4(uLAYERMatrix * s + uLAYEROffset * alpha, alpha);
#endif
#if LAYER_EFFECTS
    // Picture effects work on colours and alpha (a key): unpremultiplied, then premultiplied again (effectsLAYER,
    // ShaderLibrary).
    if (alpha <= 0.0) return vec4(0.0);
    c = effectsLAYER(vec4(c.rgb / alpha, alpha), position);
    c.rgb *= c.a;
#endif
    return c;
}

// Outside 0..1 and outside the part of the stored picture shown the background shows (the first pass: letterbox
// bars, pushed-out areas; later passes: transparent).
vec4 getLAYERColor(vec2 uv) {
    if (uv.x < 0.0 || uv.x > 1.0 || uv.y < 0.0 || uv.y > 1.0) return background;
    vec2 st = (uLAYERMap * vec3(uv, 1.0)).xy;
    if (st.x < uLAYERCrop.x || st.x > uLAYERCrop.z || st.y < uLAYERCrop.y || st.y > uLAYERCrop.w) return background;
    return sampleLAYER(st) * uLAYEROpacity;
}
