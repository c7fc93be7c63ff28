// FFmpeg xfade "fade": P·A + (1 − P)·B with xfade's progress P = 1 − p, i.e. mix(A, B, p), as crossfade.
vec4 transition(vec2 uv) {
    return mix(getFromColor(uv), getToColor(uv), progress);
}
