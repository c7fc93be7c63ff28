// The colour pipeline's stages (after the prelude; before the layers), one function per standard, and the output's
// signal for the transitions. Their Swift twins are in Sources/SegueCore (TransferFunctions.swift, Gamut.swift,
// ToneMapping.swift, ColourStage.swift), which the CPU reference runs in the same order. Linear light is relative:
// 1 = the light the caller says (a layer's stage works relative to the output's peak: SDR white 100 cd/m², HLG
// 1000 cd/m², PQ 10000 cd/m²). Every name carries the segue_ prefix (a gl-transitions shader may declare others).
// OUTPUT_TRANSFER (program-wide): 0 SDR (BT.1886), 1 HLG, 2 PQ: the signal the pass writes (RGBA previews: SDR).

// ITU-R BT.2100-2 Table 5 (HLG): a, b = 1 - 4a, c = 0.5 - a ln(4a).
const float segue_hlgA = 0.17883277;
const float segue_hlgB = 0.28466892;
const float segue_hlgC = 0.55991073;
const vec3 segue_bt2020Luminance = vec3(0.2627, 0.6780, 0.0593);
// SMPTE ST 2084 (PQ): m1 = 2610/16384, m2 = 2523/4096 * 128, c1 = 3424/4096, c2 = 2413/4096 * 32, c3 = 2392/4096 * 32.
const float segue_pqM1 = 0.1593017578125;
const float segue_pqM2 = 78.84375;
const float segue_pqC1 = 0.8359375;
const float segue_pqC2 = 18.8515625;
const float segue_pqC3 = 18.6875;
uniform vec3 segue_outputLuminance;  // luminance coefficients of the output's primaries (segue_gamutMap)

// HLG inverse OETF: E = E'^2 / 3 for E' <= 1/2, else (exp((E' - c) / a) + b) / 12.
float segue_hlgInverseOETF(float e) {
    e = max(e, 0.0);
    return e <= 0.5 ? e * e / 3.0 : (exp((e - segue_hlgC) / segue_hlgA) + segue_hlgB) / 12.0;
}
vec3 segue_hlgInverseOETF(vec3 e) { return vec3(segue_hlgInverseOETF(e.r), segue_hlgInverseOETF(e.g), segue_hlgInverseOETF(e.b)); }

// HLG OETF: E' = sqrt(3E) for E <= 1/12, else a ln(12E - b) + c.
float segue_hlgOETF(float e) {
    e = max(e, 0.0);
    return e <= 1.0 / 12.0 ? sqrt(3.0 * e) : segue_hlgA * log(12.0 * e - segue_hlgB) + segue_hlgC;
}
vec3 segue_hlgOETF(vec3 e) { return vec3(segue_hlgOETF(e.r), segue_hlgOETF(e.g), segue_hlgOETF(e.b)); }

// HLG OOTF without its gain alpha = 1000 cd/m^2: Ys^(gamma - 1) * E, gamma = 1.2, on BT.2020 luminance Ys.
vec3 segue_hlgOOTF(vec3 e) {
    float ys = max(segue_bt2020Luminance.r * e.r + segue_bt2020Luminance.g * e.g + segue_bt2020Luminance.b * e.b, 0.0);
    return e * pow(ys, 0.2);
}
// Its inverse on display light F = F_D / alpha: Yd^((1 - gamma) / gamma) * F.
vec3 segue_hlgInverseOOTF(vec3 f) {
    float yd = segue_bt2020Luminance.r * f.r + segue_bt2020Luminance.g * f.g + segue_bt2020Luminance.b * f.b;
    return yd > 0.0 ? f * pow(yd, -0.2 / 1.2) : vec3(0.0);
}

// ST 2084 EOTF: Y = (max(E'^(1/m2) - c1, 0) / (c2 - c3 E'^(1/m2)))^(1/m1), Y = luminance / 10000 cd/m^2.
float segue_pqEOTF(float e) {
    float p = pow(clamp(e, 0.0, 1.0), 1.0 / segue_pqM2);
    return pow(max(p - segue_pqC1, 0.0) / (segue_pqC2 - segue_pqC3 * p), 1.0 / segue_pqM1);
}
vec3 segue_pqEOTF(vec3 e) { return vec3(segue_pqEOTF(e.r), segue_pqEOTF(e.g), segue_pqEOTF(e.b)); }
// Its inverse: E' = ((c1 + c2 Y^m1) / (1 + c3 Y^m1))^m2.
float segue_pqInverseEOTF(float y) {
    float p = pow(clamp(y, 0.0, 1.0), segue_pqM1);
    return pow((segue_pqC1 + segue_pqC2 * p) / (1.0 + segue_pqC3 * p), segue_pqM2);
}
vec3 segue_pqInverseEOTF(vec3 y) { return vec3(segue_pqInverseEOTF(y.r), segue_pqInverseEOTF(y.g), segue_pqInverseEOTF(y.b)); }

// ITU-R BT.1886 Annex 1 with white Lw = 1 and black Lb = 0: L = V^2.4 (relative to white), and its inverse.
// Values below 0 (Y'CbCr that is out of gamut is not clamped) are mirrored, -(-V)^2.4; the colour stage clamps
// its inputs at 0 first.
vec3 segue_bt1886EOTF(vec3 v) {
    return sign(v) * pow(abs(v), vec3(2.4));
}
vec3 segue_bt1886InverseEOTF(vec3 l) {
    return sign(l) * pow(abs(l), vec3(1.0 / 2.4));
}

// Gamut mapping that keeps hue (GamutMapping.desaturateIntoGamut): a linear colour with a negative component moves
// towards the grey of its luminance until that component is 0.
vec3 segue_gamutMap(vec3 c, vec3 luminance) {
    float lowest = min(min(c.r, c.g), c.b);
    if (lowest >= 0.0) return c;
    float y = luminance.r * c.r + luminance.g * c.g + luminance.b * c.b;
    if (y <= 0.0) return vec3(0.0);
    float t = y / (y - lowest);
    return vec3(y) + t * (c - vec3(y));
}

// Tone-mapping curves on light relative to the target's peak (ToneMap; k = uLAYERTone). FFmpeg vf_tonemap.c's
// clip, reinhard, mobius and hable; the ITU-R BT.2390 EETF.
float segue_toneMapClip(float x) { return min(x, 1.0); }
float segue_toneMapReinhard(float x, vec4 k) { return x / (x + 1.0) * k.x; }
float segue_hable(float x) {
    return (x * (x * 0.15 + 0.50 * 0.10) + 0.20 * 0.02) / (x * (x * 0.15 + 0.50) + 0.20 * 0.30) - 0.02 / 0.30;
}
float segue_toneMapHable(float x, vec4 k) { return segue_hable(x) * k.x; }
float segue_toneMapMobius(float x, vec4 k) { return x <= k.x ? x : k.w * (x + k.y) / (x + k.z); }
// k = (target peak / 10000, PQ(source peak), maxLum, KS).
float segue_toneMapBT2390(float x, vec4 k) {
    float e1 = min(segue_pqInverseEOTF(x * k.x) / k.y, 1.0);
    float e2 = e1;
    if (e1 >= k.w) {
        float t = (e1 - k.w) / (1.0 - k.w), t2 = t * t, t3 = t2 * t;
        e2 = (2.0 * t3 - 3.0 * t2 + 1.0) * k.w + (t3 - 2.0 * t2 + t) * (1.0 - k.w) + (-2.0 * t3 + 3.0 * t2) * k.z;
    }
    return segue_pqEOTF(e2 * k.y) / k.x;
}

// The output's EOTF (DynamicRange.eotf): its R'G'B' signal -> display light relative to its peak, per OUTPUT_TRANSFER
// (BT.1886; HLG: inverse OETF then OOTF, BT.2100's HLG EOTF for the 1000 cd/m^2 display; PQ: ST 2084), and its
// inverse (DynamicRange.inverseEOTF). Components below 0 are mirrored (-f(-v)), as in segue_bt1886EOTF, so that
// out-of-gamut R'G'B' survives the round trip; the layers' colour stage hands the inverse light >= 0 only.
vec3 segue_outputEOTF(vec3 v) {
#if OUTPUT_TRANSFER == 0
    return segue_bt1886EOTF(v);
#elif OUTPUT_TRANSFER == 1
    vec3 e = segue_hlgInverseOETF(abs(v));
    return segue_hlgOOTF(mix(e, -e, lessThan(v, vec3(0.0))));
#else
    vec3 y = segue_pqEOTF(abs(v));
    return mix(y, -y, lessThan(v, vec3(0.0)));
#endif
}
vec3 segue_outputInverseEOTF(vec3 l) {
#if OUTPUT_TRANSFER == 0
    return segue_bt1886InverseEOTF(l);
#elif OUTPUT_TRANSFER == 1
    vec3 e = segue_hlgInverseOOTF(l), v = segue_hlgOETF(abs(e));
    return mix(v, -v, lessThan(e, vec3(0.0)));
#else
    vec3 v = segue_pqInverseEOTF(abs(l));
    return mix(v, -v, lessThan(l, vec3(0.0)));
#endif
}

// R'G'B' -> the output's Y'CbCr (code / (2^N - 1)) and back. Transitions that mix in linear light (LINEAR) hand
// these linear colours: the conversion undoes and redoes the output's transfer around them.
vec3 segue_toYCbCr(vec3 rgb) {
#if LINEAR
    rgb = segue_outputInverseEOTF(rgb);
#endif
    return vec3(dot(segue_rowY.xyz, rgb) + segue_rowY.w, dot(segue_rowCb.xyz, rgb) + segue_rowCb.w,
                dot(segue_rowCr.xyz, rgb) + segue_rowCr.w);
}
vec3 segue_fromYCbCr(vec3 ycc) {
    vec3 rgb = segue_fromOutputMatrix * ycc + segue_fromOutputOffset;
#if LINEAR
    rgb = segue_outputEOTF(rgb);
#endif
    return rgb;
}
