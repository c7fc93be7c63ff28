// No transition: the single visible clip.
vec4 transition(vec2 uv) {
    return getFromColor(uv);
}
