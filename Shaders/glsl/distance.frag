// FFmpeg xfade "distance" (P = 1 − p, xfade's progress), on the output's Y'CbCr components (code / 255; xfade works
// on the planes, in whole codes): where A and B are at most P apart the pixel crossfades, P·A + (1 − P)·B; elsewhere it shows B.
vec4 transition(vec2 uv) {
    float P = 1.0 - progress;
    vec4 a = getFromColor(uv), b = getToColor(uv);
    // In whole codes, as xfade reads the planes (and so that both renderers decide alike at the threshold).
    vec3 d = floor(segue_toYCbCr(a.rgb) * 255.0 + 0.5) / 255.0 - floor(segue_toYCbCr(b.rgb) * 255.0 + 0.5) / 255.0;
    return mix(b, sqrt(dot(d, d)) <= P ? a : b, P);
}
