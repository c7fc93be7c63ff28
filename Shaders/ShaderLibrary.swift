/// The GLSL ES 3.00 sources under `Shaders/glsl/`, embedded into the binary at build time
/// (no resource bundle to find at run time).
///
/// A program is `#version 300 es` + the variant's `#define`s + `prelude.glsl` + `colour.glsl` (the colour pipeline's
/// stages: HLG, PQ, BT.1886, gamut mapping, tone curves) + `layer.glsl` twice (spelled
/// `From` and `To`: `getFromColor`, `getToColor`) + one transition file (`<name>.frag`, gl-transitions contract:
/// `vec4 transition(vec2 uv)` calling `getFromColor`/`getToColor`, with `progress`, `ratio`, `direction`) +
/// `main.glsl`.
public enum ShaderLibrary {
    /// Transition function stems available: "none", "crossfade", "push", "wipe".
    public static let transitions: [String] = ["none", "crossfade", "push", "wipe"]

    /// What a program writes (`OUTPUT` in `main.glsl`).
    public enum Output: Int, Hashable, Sendable {
        /// R′G′B′A at each pixel (RGBA8 target).
        case rgba = 0
        /// The output's BT.709 limited-range luma (R8 target, render size).
        case luma = 1
        /// Cb and Cr (two R8 targets, half the render size).
        case chroma = 2
    }

    /// How one layer's stored picture is read and coloured (`LAYER_KIND`, `LAYER_EXACT`, `LAYER_LUMA`, `LAYER_CHROMA`,
    /// `LAYER_TRANSFER`, `LAYER_TONE` in `layer.glsl`).
    public struct LayerVariant: Hashable, Sendable {
        public enum Kind: Int, Hashable, Sendable {
            case rgba = 0, planar8 = 1, semiPlanar8 = 2, planar16 = 3
        }
        public var kind: Kind
        /// Exact texel fetches (pixel-exact geometry).
        public var exact: Bool
        /// Whether the luma / chroma planes are read (planes whose colour coefficients vanish are not).
        public var readsLuma: Bool
        public var readsChroma: Bool
        /// The colour stage's input (`ColourStage.shaderID`: 0 none, 1 SDR, 2 HLG, 3 PQ) and tone curve
        /// (`ToneMapCurve.shaderID`, 0 none).
        public var transfer: Int
        public var tone: Int
        public init(kind: Kind, exact: Bool, readsLuma: Bool = true, readsChroma: Bool = true, transfer: Int = 0, tone: Int = 0) {
            self.kind = kind; self.exact = exact; self.readsLuma = readsLuma; self.readsChroma = readsChroma
            self.transfer = transfer; self.tone = tone
        }
    }

    /// The full fragment shader for transition `name` with the given layer variants and output, or nil if there
    /// is no such transition. `outputTransfer` is `OUTPUT_TRANSFER` (`DynamicRange.shaderID`: 0 SDR, 1 HLG, 2 PQ),
    /// `outputBits` `OUTPUT_BITS` (8, or 10 for the HDR outputs' yuv420p10le planes).
    public static func fragmentSource(transition name: String, from: LayerVariant, to: LayerVariant, output: Output, fused: Bool = false,
                                      outputTransfer: Int = 0, outputBits: Int = 8) -> String? {
        let body: [UInt8]
        switch name {
        case "none": body = PackageResources.none_frag
        case "crossfade": body = PackageResources.crossfade_frag
        case "push": body = PackageResources.push_frag
        case "wipe": body = PackageResources.wipe_frag
        default: return nil
        }
        let layer = text(PackageResources.layer_glsl)
        func layerSource(_ name: String, _ v: LayerVariant) -> String {
            "#define \(name)_KIND \(v.kind.rawValue)\n#define \(name)_EXACT \(v.exact ? 1 : 0)\n"
                + "#define \(name)_LUMA \(v.readsLuma ? 1 : 0)\n#define \(name)_CHROMA \(v.readsChroma ? 1 : 0)\n"
                + "#define \(name)_TRANSFER \(v.transfer)\n#define \(name)_TONE \(v.tone)\n"
                + layer.replacing("LAYER", with: name)
        }
        return "#version 300 es\n#define OUTPUT \(output.rawValue)\n#define FUSED \(fused ? 1 : 0)\n#define OUTPUT_TRANSFER \(outputTransfer)\n#define OUTPUT_BITS \(outputBits)\n"
            + text(PackageResources.prelude_glsl) + text(PackageResources.colour_glsl)
            + layerSource("From", from) + layerSource("To", to)
            + "\n#line 1 1\n" + text(body) + "\n#line 1 2\n" + text(PackageResources.main_glsl)
    }

    /// The RGBA program with RGBA layers read bilinearly (the shape before planar input).
    public static func fragmentSource(transition name: String) -> String? {
        let v = LayerVariant(kind: .rgba, exact: false)
        return fragmentSource(transition: name, from: v, to: v, output: .rgba)
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
