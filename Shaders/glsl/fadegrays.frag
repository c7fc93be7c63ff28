// FFmpeg xfade "fadegrays" (P = 1 − p, xfade's progress), on the output's Y'CbCr: a clip's grey keeps its luma with
// neutral chroma; P·mix(grey A, A, s(1 − phase, 1, P)) + (1 − P)·mix(B, grey B, s(phase, 1, P)), s = smoothstep;
// xfade's phase is 0.2.
uniform float phase;
vec4 grey(vec4 c) {
    return vec4(segue_fromYCbCr(vec3(segue_toYCbCr(c.rgb).x, segue_neutralChroma, segue_neutralChroma)), c.a);
}
vec4 transition(vec2 uv) {
    float P = segue_xfadeProgress;
    vec4 a = getFromColor(uv), b = getToColor(uv);
    vec4 outgoing = mix(grey(a), a, smoothstep(1.0 - phase, 1.0, P));
    vec4 incoming = mix(b, grey(b), smoothstep(phase, 1.0, P));
    return mix(incoming, outgoing, P);
}
