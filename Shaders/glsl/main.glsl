// Entry point: one output pixel per fragment; uv has a top-left origin because rows are read back top first.
out vec4 fragColor;
void main() {
    fragColor = transition(gl_FragCoord.xy / uResolution);
}
