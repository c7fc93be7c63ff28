// FFmpeg xfade "fadewhite" (P = 1 − p, xfade's progress): A reaches white as P falls to 1 − phase, B leaves white
// as P falls from phase:
// P·mix(white, A, s(1 − phase, 1, P)) + (1 − P)·mix(B, white, s(phase, 1, P)), s = smoothstep; xfade's phase is 0.2.
uniform float phase;
vec4 transition(vec2 uv) {
    float P = segue_xfadeProgress;
    vec4 outgoing = mix(segue_white, getFromColor(uv), smoothstep(1.0 - phase, 1.0, P));
    vec4 incoming = mix(getToColor(uv), segue_white, smoothstep(phase, 1.0, P));
    return mix(incoming, outgoing, P);
}
