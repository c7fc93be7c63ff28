// FFmpeg xfade "distance" (P = 1 − p, xfade's progress), on the output's Y'CbCr components (code / (2^N - 1);
// xfade works on the planes, in whole codes): where A and B are at most P apart the pixel crossfades,
// P·A + (1 − P)·B; elsewhere it shows B.
vec4 transition(vec2 uv) {
    float P = segue_xfadeProgress;
    vec4 a = getFromColor(uv), b = getToColor(uv);
    // In whole codes, as xfade reads the planes (and so that both renderers decide alike at the threshold).
    vec3 d = floor(segue_toYCbCr(a.rgb) * segue_maxCode + 0.5) / segue_maxCode - floor(segue_toYCbCr(b.rgb) * segue_maxCode + 0.5) / segue_maxCode;
    return mix(b, sqrt(dot(d, d)) <= P ? a : b, P);
}
