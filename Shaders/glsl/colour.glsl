// The colour pipeline's stages (after the prelude; before the layers), one function per standard. Their Swift twins
// are in Sources/SegueCore (TransferFunctions.swift, Gamut.swift, ToneMapping.swift, ColourStage.swift), which the
// CPU reference runs in the same order. Linear light is relative: 1 = the light the caller says (a layer's stage
// works relative to the output's peak: SDR white 100 cd/m², HLG 1000 cd/m², PQ 10000 cd/m²).
// OUTPUT_TRANSFER (program-wide): 0 SDR (BT.1886), 1 HLG, 2 PQ.

// ITU-R BT.2100-2 Table 5 (HLG): a, b = 1 - 4a, c = 0.5 - a ln(4a).
const float HLG_A = 0.17883277;
const float HLG_B = 0.28466892;
const float HLG_C = 0.55991073;
const vec3 BT2020_LUMINANCE = vec3(0.2627, 0.6780, 0.0593);
// SMPTE ST 2084 (PQ): m1 = 2610/16384, m2 = 2523/4096 * 128, c1 = 3424/4096, c2 = 2413/4096 * 32, c3 = 2392/4096 * 32.
const float PQ_M1 = 0.1593017578125;
const float PQ_M2 = 78.84375;
const float PQ_C1 = 0.8359375;
const float PQ_C2 = 18.8515625;
const float PQ_C3 = 18.6875;
uniform vec3 uOutputLuminance;  // luminance coefficients of the output's primaries (gamutMap)

// HLG inverse OETF: E = E'^2 / 3 for E' <= 1/2, else (exp((E' - c) / a) + b) / 12.
float hlgInverseOETF(float e) {
    e = max(e, 0.0);
    return e <= 0.5 ? e * e / 3.0 : (exp((e - HLG_C) / HLG_A) + HLG_B) / 12.0;
}
vec3 hlgInverseOETF(vec3 e) { return vec3(hlgInverseOETF(e.r), hlgInverseOETF(e.g), hlgInverseOETF(e.b)); }

// HLG OETF: E' = sqrt(3E) for E <= 1/12, else a ln(12E - b) + c.
float hlgOETF(float e) {
    e = max(e, 0.0);
    return e <= 1.0 / 12.0 ? sqrt(3.0 * e) : HLG_A * log(12.0 * e - HLG_B) + HLG_C;
}
vec3 hlgOETF(vec3 e) { return vec3(hlgOETF(e.r), hlgOETF(e.g), hlgOETF(e.b)); }

// HLG OOTF without its gain alpha = 1000 cd/m^2: Ys^(gamma - 1) * E, gamma = 1.2, on BT.2020 luminance Ys.
vec3 hlgOOTF(vec3 e) {
    float ys = max(BT2020_LUMINANCE.r * e.r + BT2020_LUMINANCE.g * e.g + BT2020_LUMINANCE.b * e.b, 0.0);
    return e * pow(ys, 0.2);
}
// Its inverse on display light F = F_D / alpha: Yd^((1 - gamma) / gamma) * F.
vec3 hlgInverseOOTF(vec3 f) {
    float yd = BT2020_LUMINANCE.r * f.r + BT2020_LUMINANCE.g * f.g + BT2020_LUMINANCE.b * f.b;
    return yd > 0.0 ? f * pow(yd, -0.2 / 1.2) : vec3(0.0);
}

// ST 2084 EOTF: Y = (max(E'^(1/m2) - c1, 0) / (c2 - c3 E'^(1/m2)))^(1/m1), Y = luminance / 10000 cd/m^2.
float pqEOTF(float e) {
    float p = pow(clamp(e, 0.0, 1.0), 1.0 / PQ_M2);
    return pow(max(p - PQ_C1, 0.0) / (PQ_C2 - PQ_C3 * p), 1.0 / PQ_M1);
}
vec3 pqEOTF(vec3 e) { return vec3(pqEOTF(e.r), pqEOTF(e.g), pqEOTF(e.b)); }
// Its inverse: E' = ((c1 + c2 Y^m1) / (1 + c3 Y^m1))^m2.
float pqInverseEOTF(float y) {
    float p = pow(clamp(y, 0.0, 1.0), PQ_M1);
    return pow((PQ_C1 + PQ_C2 * p) / (1.0 + PQ_C3 * p), PQ_M2);
}
vec3 pqInverseEOTF(vec3 y) { return vec3(pqInverseEOTF(y.r), pqInverseEOTF(y.g), pqInverseEOTF(y.b)); }

// ITU-R BT.1886 with black at 0: L = V^2.4 (relative to white), and its inverse.
vec3 bt1886EOTF(vec3 v) { return pow(max(v, 0.0), vec3(2.4)); }
vec3 bt1886InverseEOTF(vec3 l) { return pow(max(l, 0.0), vec3(1.0 / 2.4)); }

// Gamut mapping that keeps hue (GamutMapping.desaturateIntoGamut): a linear colour with a negative component moves
// towards the grey of its luminance until that component is 0.
vec3 gamutMap(vec3 c, vec3 luminance) {
    float lowest = min(min(c.r, c.g), c.b);
    if (lowest >= 0.0) return c;
    float y = luminance.r * c.r + luminance.g * c.g + luminance.b * c.b;
    if (y <= 0.0) return vec3(0.0);
    float t = y / (y - lowest);
    return vec3(y) + t * (c - vec3(y));
}

// Tone-mapping curves on light relative to the target's peak (ToneMap; k = uLAYERTone). FFmpeg vf_tonemap.c's
// clip, reinhard, mobius and hable; the ITU-R BT.2390 EETF.
float toneMapClip(float x) { return min(x, 1.0); }
float toneMapReinhard(float x, vec4 k) { return x / (x + 1.0) * k.x; }
float hable(float x) {
    return (x * (x * 0.15 + 0.50 * 0.10) + 0.20 * 0.02) / (x * (x * 0.15 + 0.50) + 0.20 * 0.30) - 0.02 / 0.30;
}
float toneMapHable(float x, vec4 k) { return hable(x) * k.x; }
float toneMapMobius(float x, vec4 k) { return x <= k.x ? x : k.w * (x + k.y) / (x + k.z); }
// k = (target peak / 10000, PQ(source peak), maxLum, KS).
float toneMapBT2390(float x, vec4 k) {
    float e1 = min(pqInverseEOTF(x * k.x) / k.y, 1.0);
    float e2 = e1;
    if (e1 >= k.w) {
        float t = (e1 - k.w) / (1.0 - k.w), t2 = t * t, t3 = t2 * t;
        e2 = (2.0 * t3 - 3.0 * t2 + 1.0) * k.w + (t3 - 2.0 * t2 + t) * (1.0 - k.w) + (-2.0 * t3 + 3.0 * t2) * k.z;
    }
    return pqEOTF(e2 * k.y) / k.x;
}

// Linear light relative to the output's peak -> the output's R'G'B'.
vec3 encodeOutput(vec3 l) {
#if OUTPUT_TRANSFER == 0
    return bt1886InverseEOTF(l);
#elif OUTPUT_TRANSFER == 1
    return hlgOETF(hlgInverseOOTF(l));
#else
    return pqInverseEOTF(l);
#endif
}
