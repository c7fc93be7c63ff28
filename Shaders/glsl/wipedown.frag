// FFmpeg xfade "wipedown" (P = 1 − p, xfade's progress): A where y > z = int(H·(1 − P)), B above: B is revealed from the top.
vec4 transition(vec2 uv) {
    float P = segue_xfadeProgress;
    int z = int(segue_resolution.y * (1.0 - P));
    return int(segue_pixel(uv).y) > z ? getFromColor(uv) : getToColor(uv);
}
