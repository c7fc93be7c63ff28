// FFmpeg xfade "wiperight" (P = 1 − p, xfade's progress): A where x > z = int(W·(1 − P)), B to its left:
// B is revealed from the left.
vec4 transition(vec2 uv) {
    float P = segue_xfadeProgress;
    int z = int(segue_resolution.x * (1.0 - P));
    return int(segue_pixel(uv).x) > z ? getFromColor(uv) : getToColor(uv);
}
