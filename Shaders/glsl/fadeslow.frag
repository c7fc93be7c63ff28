// FFmpeg xfade "fadeslow" (P = 1 − p, xfade's progress), per component of the output's Y'CbCr
// (code / (2^N - 1); xfade works on the planes): A's weight is P^(1 + ln(2 − |A − B|)):
// components that differ more reach B later.
vec4 transition(vec2 uv) {
    float P = segue_xfadeProgress;
    vec4 A = getFromColor(uv), B = getToColor(uv);
    vec3 a = segue_toYCbCr(A.rgb), b = segue_toYCbCr(B.rgb);
    vec3 w = P <= 0.0 ? vec3(0.0) : pow(vec3(P), 1.0 + log(2.0 - abs(a - b)));
    // Layers with alpha (upper tracks): the alphas crossfade; opaque layers stay opaque.
    return vec4(segue_fromYCbCr(mix(b, a, w)).rgb, A.a == B.a ? A.a : mix(B.a, A.a, P));
}
