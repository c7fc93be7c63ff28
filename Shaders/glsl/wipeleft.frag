// FFmpeg xfade "wipeleft" (P = 1 − p, xfade's progress): A where the pixel's column x ≤ z = int(W·P), B to its right:
// B is revealed from the right.
vec4 transition(vec2 uv) {
    float P = segue_xfadeProgress;
    int z = int(segue_resolution.x * P);
    return int(segue_pixel(uv).x) > z ? getToColor(uv) : getFromColor(uv);
}
