// Crossfade (opacity ramp): out = (1 - p)·A + p·B.
vec4 transition(vec2 uv) {
    return mix(getFromColor(uv), getToColor(uv), progress);
}
