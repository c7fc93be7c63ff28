/// The GLSL ES 3.00 sources under `Shaders/glsl/`, embedded into the binary at build time
/// (no resource bundle to find at run time).
///
/// A program is `prelude.glsl` + one transition file (`<name>.frag`, gl-transitions contract:
/// `vec4 transition(vec2 uv)` calling `getFromColor`/`getToColor`, with `progress`, `ratio`, `direction`) + `main.glsl`.
public enum ShaderLibrary {
    /// Transition function stems available: "none", "crossfade", "push", "wipe".
    public static let transitions: [String] = ["none", "crossfade", "push", "wipe"]

    /// The full fragment shader for transition `name`, or nil if there is no such transition.
    public static func fragmentSource(transition name: String) -> String? {
        let body: [UInt8]
        switch name {
        case "none": body = PackageResources.none_frag
        case "crossfade": body = PackageResources.crossfade_frag
        case "push": body = PackageResources.push_frag
        case "wipe": body = PackageResources.wipe_frag
        default: return nil
        }
        return text(PackageResources.prelude_glsl) + "\n#line 1 1\n" + text(body) + "\n#line 1 2\n" + text(PackageResources.main_glsl)
    }

    /// The vertex shader: one full-screen triangle, no attributes.
    public static let vertexSource = """
    #version 300 es
    void main() {
        vec2 p = vec2(float((gl_VertexID << 1) & 2), float(gl_VertexID & 2));
        gl_Position = vec4(p * 2.0 - 1.0, 0.0, 1.0);
    }
    """

    static func text(_ bytes: [UInt8]) -> String { String(decoding: bytes, as: UTF8.self) }
}
