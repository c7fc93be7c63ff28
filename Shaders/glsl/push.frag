// Push (transform ramps): A moves by p·direction (in picture widths/heights) and slides out;
// B follows one picture behind, moving by (p - 1)·direction, and slides in.
// left: A by -p·W in x, B by (1 - p)·W.
vec4 transition(vec2 uv) {
    vec2 a = uv - progress * segue_direction;
    if (a.x >= 0.0 && a.x <= 1.0 && a.y >= 0.0 && a.y <= 1.0) return getFromColor(a);
    return getToColor(uv + (1.0 - progress) * segue_direction);
}
