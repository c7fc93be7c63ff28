// FFmpeg xfade "fadeblack" (P = 1 − p, xfade's progress): A reaches black as P falls to 1 − phase, B leaves black
// as P falls from phase:
// P·mix(black, A, s(1 − phase, 1, P)) + (1 − P)·mix(B, black, s(phase, 1, P)), s = smoothstep; xfade's phase is 0.2.
uniform float phase;
vec4 transition(vec2 uv) {
    float P = segue_xfadeProgress;
    vec4 outgoing = mix(segue_black, getFromColor(uv), smoothstep(1.0 - phase, 1.0, P));
    vec4 incoming = mix(getToColor(uv), segue_black, smoothstep(phase, 1.0, P));
    return mix(incoming, outgoing, P);
}
