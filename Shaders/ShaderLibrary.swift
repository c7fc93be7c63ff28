import SegueCore

/// The GLSL ES 3.00 sources under `Shaders/glsl/`, embedded into the binary at build time
/// (no resource bundle to find at run time).
///
/// A program is `#version 300 es` + the variant's `#define`s + `prelude.glsl` + `colour.glsl` (the colour pipeline's
/// stages: HLG, PQ, BT.1886, gamut mapping, tone curves; the output's EOTF and Y′CbCr for the transitions) +
/// `layer.glsl` twice (spelled `From` and `To`: `getFromColor`, `getToColor`; a third time, `Matte`, for a pass a
/// track matte masks) + one transition file (`<name>.frag`,
/// gl-transitions contract: `vec4 transition(vec2 uv)` calling `getFromColor`/`getToColor`, with `progress`, `ratio`
/// and Segue's `segue_direction`; or a gl-transitions shader rewritten by the host, `glTransitionCode`) +
/// `main.glsl`. Every file of the folder is embedded (the `EmbedShaderFolder` plugin indexes them by name).
public enum ShaderLibrary {
    /// The stems of every `.frag` file in `Shaders/glsl/`: each built-in transition's function, and "none".
    public static let transitions: [String] = shaderFiles.keys.filter { $0.hasSuffix(".frag") }.map { String($0.dropLast(5)) }.sorted()

    /// The text of a file in `Shaders/glsl/` (e.g. `prelude.glsl`, `wipe.frag`), nil if there is none.
    public static func file(_ name: String) -> String? { shaderFiles[name].map(text) }

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
        /// The layer shows part of its picture (`LAYER_CROP`: filtered reads stay inside the crop).
        public var cropped: Bool
        /// The picture effects' kinds in order (`Effect`; `LAYER_EFFECTS`, `effectsLAYER`).
        public var effects: [Effect]
        public init(kind: Kind, exact: Bool, readsLuma: Bool = true, readsChroma: Bool = true, transfer: Int = 0, tone: Int = 0,
                    cropped: Bool = false, effects: [Effect] = []) {
            self.kind = kind; self.exact = exact; self.readsLuma = readsLuma; self.readsChroma = readsChroma
            self.transfer = transfer; self.tone = tone; self.cropped = cropped; self.effects = effects
        }

        /// A picture effect as the shader runs it: a colour adjustment (uniform `uLAYERColourK`, 28 floats), a 1D or a 3D
        /// table (one per layer: `uLAYERLut`, `uLAYERLutMin`, `uLAYERLutScale`, `uLAYERLutSize`, `uLAYERLutStrength`),
        /// a chroma key (`uLAYERKeyK`, 5 floats: `ChromaKey.uniforms`), a vignette (`uLAYERVignetteK`, 2 floats).
        public enum Effect: Hashable, Sendable {
            case colour, lut1D, lut3D, chromaKey, vignette
            public init(_ e: PictureEffect) {
                switch e {
                case .colour: self = .colour
                case .lut(let t, _): self = t.is3D ? .lut3D : .lut1D
                case .chromaKey: self = .chromaKey
                case .vignette: self = .vignette
                case .filter: preconditionFailure("a blur or sharpen is drawn before the layer's pass (filteringLayers)")
                }
            }
        }

        /// The declarations and `effectsLAYER` of the effects (LAYER spelled as the layer is), "" for none.
        func effectsSource() -> String {
            guard !effects.isEmpty else { return "" }
            // c: unpremultiplied R′G′B′ and alpha; the colour steps change c.rgb, a key c.a too.
            var decl = "", body = "vec4 effectsLAYER(vec4 c, vec2 position) {\n"
            for (k, e) in effects.enumerated() {
                switch e {
                case .colour:
                    decl += "uniform float uLAYERColour\(k)[28];\n"
                    body += "    c.rgb = segue_colourAdjust(c.rgb, uLAYERColour\(k));\n"
                case .vignette:
                    decl += "uniform float uLAYERVignette\(k)[2];\n"
                    body += "    c.rgb = segue_vignette(c.rgb, position, uLAYERVignette\(k));\n"
                case .chromaKey:
                    decl += "uniform float uLAYERKey\(k)[5];\n"
                    body += "    c = segue_chromaKey(c, uLAYERKey\(k));\n"
                case .lut1D, .lut3D:
                    decl += "uniform highp \(e == .lut3D ? "sampler3D" : "sampler2D") uLAYERLut;\nuniform vec3 uLAYERLutMin;\nuniform vec3 uLAYERLutScale;\n"
                        + "uniform float uLAYERLutSize;\nuniform float uLAYERLutStrength;\n"
                    body += "    c.rgb = c.rgb + (segue_\(e == .lut3D ? "lut3d" : "lut1d")(uLAYERLut, c.rgb, uLAYERLutMin, uLAYERLutScale, uLAYERLutSize) - c.rgb) * uLAYERLutStrength;\n"
                }
            }
            return decl + body + "    return c;\n}\n"
        }
    }

    /// The full fragment shader for transition `name` with the given layer variants and output, or nil if there
    /// is no such transition. `outputTransfer` is `OUTPUT_TRANSFER` (`DynamicRange.shaderID`: 0 SDR, 1 HLG, 2 PQ),
    /// `outputBits` `OUTPUT_BITS` (8, or 10 for the HDR outputs' yuv420p10le planes), `overBelow` `OVER_BELOW` (a
    /// frame's later passes, blended into what is below them; `main.glsl`), `blend` `BLEND` (`BlendMode.shaderID`; 0,
    /// normal, leaves `blend.glsl` out), `matte` the track matte's layer variant and `MATTE` (`MatteMode.shaderID`; nil: none).
    public static func fragmentSource(transition name: String, from: LayerVariant, to: LayerVariant, output: OutputPass, fused: Bool = false,
                                      linear: Bool = false, outputTransfer: Int = 0, outputBits: Int = 8, overBelow: Bool = false, blend: Int = 0,
                                      matte: (variant: LayerVariant, mode: Int)? = nil) -> String? {
        guard let body = shaderFiles["\(name).frag"] else { return nil }
        return fragmentSource(transitionCode: "\n#line 1 1\n" + text(body), from: from, to: to, output: output, fused: fused, linear: linear,
                              outputTransfer: outputTransfer, outputBits: outputBits, overBelow: overBelow, blend: blend, matte: matte)
    }

    /// The full fragment shader around `transitionCode`, the section that defines `vec4 transition(vec2 uv)`
    /// (with its own `#line` directives).
    /// With `linear`, the transition mixes in linear light: after the layers, `getFromColor`/`getToColor` become
    /// macros that pass the layers' colours through the output's EOTF (`segue_outputEOTF` in `colour.glsl`: BT.1886,
    /// or HLG's or PQ's for HDR output), and the composite goes back through its inverse (`main.glsl`).
    public static func fragmentSource(transitionCode: String, from: LayerVariant, to: LayerVariant, output: OutputPass, fused: Bool = false,
                                      linear: Bool = false, outputTransfer: Int = 0, outputBits: Int = 8, overBelow: Bool = false, blend: Int = 0,
                                      matte: (variant: LayerVariant, mode: Int)? = nil) -> String {
        let layer = text(PackageResources.layer_glsl)
        func layerSource(_ name: String, _ v: LayerVariant) -> String {
            "#define \(name)_KIND \(v.kind.rawValue)\n#define \(name)_EXACT \(v.exact ? 1 : 0)\n"
                + "#define \(name)_LUMA \(v.readsLuma ? 1 : 0)\n#define \(name)_CHROMA \(v.readsChroma ? 1 : 0)\n"
                + "#define \(name)_TRANSFER \(v.transfer)\n#define \(name)_TONE \(v.tone)\n#define \(name)_CROP \(v.cropped ? 1 : 0)\n"
                + "#define \(name)_EFFECTS \(v.effects.isEmpty ? 0 : 1)\n" + (v.effectsSource() + layer).replacing("LAYER", with: name)
        }
        let toLinear = linear ? "#define getFromColor(uv) segue_toLinear(getFromColor(uv))\n#define getToColor(uv) segue_toLinear(getToColor(uv))\n"
            + "vec4 segue_toLinear(vec4 c) {\n    if (c.a >= 1.0) return vec4(segue_outputEOTF(c.rgb), c.a);\n"
            + "    if (c.a <= 0.0) return vec4(0.0);\n    return vec4(segue_outputEOTF(c.rgb / c.a) * c.a, c.a);\n}\n" : ""
        return "#version 300 es\n#define OUTPUT \(output.rawValue)\n#define FUSED \(fused ? 1 : 0)\n#define LINEAR \(linear ? 1 : 0)\n"
            + "#define OUTPUT_TRANSFER \(outputTransfer)\n#define OUTPUT_BITS \(outputBits)\n#define OVER_BELOW \(overBelow ? 1 : 0)\n"
            + text(PackageResources.prelude_glsl) + text(PackageResources.colour_glsl)
            + (from.effects.isEmpty && to.effects.isEmpty ? "" : text(PackageResources.effects_glsl))
            + layerSource("From", from) + layerSource("To", to)
            + (matte.map { "#define MATTE \($0.mode)\n" + layerSource("Matte", $0.variant) } ?? "") + toLinear
            + transitionCode + (blend != 0 ? "\n#define BLEND \(blend)\n#line 1 3\n" + text(PackageResources.blend_glsl) : "")
            + "\n#line 1 2\n" + text(PackageResources.main_glsl)
    }

    /// The transition section for a gl-transitions shader rewritten by the host (`GLTransitionHost`): the
    /// lookups, its code as source string 1 from line `glLineOffset + 1`, its macros undefined, the
    /// precision restored, `segue_initGlobals()` with its moved initialisers (each at its line), and Segue's
    /// `transition()` around its own.
    /// Line `n` of a gl-transitions shader is line `glLineOffset + n` of the program (Mesa does not always
    /// report the source string number, so the lines tell the shader's own apart from Segue's).
    public static let glLineOffset = 100_000

    public static func glTransitionCode(code: String, initialisers: [(line: Int, statement: String)], macros: [String]) -> String {
        var s = text(PackageResources.glsl_host_lookups_glsl) + "\n#line \(glLineOffset + 1) 1\n" + code + "\n"
        for m in macros { s += "#undef \(m)\n" }
        s += "precision highp float;\nprecision highp int;\n#define SEGUE_GLOBALS 1\nvoid segue_initGlobals() {\n"
        for (line, statement) in initialisers { s += "#line \(glLineOffset + line) 1\n    \(statement)\n" }
        s += "}\n#line 1 3\n" + text(PackageResources.glsl_host_entry_glsl)
        return s
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
