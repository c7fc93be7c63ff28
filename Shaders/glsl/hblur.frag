// FFmpeg xfade "hblur" (P = 1 − p, xfade's progress): each clip is averaged over the pixel and the size − 1 pixels
// to its right (fewer at the right edge), size = int(1 + (W/2)·q), q = 2P for P ≤ 0.5, else 2(1 − P); the two
// averages are crossfaded, P·A + (1 − P)·B. Costs size reads of each clip per pixel (W/2 + 1 at p = ½).
vec4 transition(vec2 uv) {
    float P = segue_xfadeProgress;
    float q = P <= 0.5 ? P * 2.0 : (1.0 - P) * 2.0;
    int W = int(segue_resolution.x);
    vec2 px = segue_pixel(uv);
    int n = min(int(1.0 + float(W / 2) * q), W - int(px.x));
    vec4 a = vec4(0.0), b = vec4(0.0);
    for (int k = 0; k < n; k++) {
        vec2 at = segue_moved(uv, vec2(px.x + float(k), px.y));
        a += getFromColor(at);
        b += getToColor(at);
    }
    return mix(b / float(n), a / float(n), P);
}
