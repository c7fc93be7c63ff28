/// How a layer's colour mixes with the colour below it before it is composited (`"layer": {"blend": MODE}`): the
/// W3C Compositing and Blending Level 1 blend modes (§10, "Blending"), by their CSS names, plus `add`.
///
/// Blending is in R′G′B′ (gamma-encoded, each 0…1), as browsers blend. With `Cb` the backdrop's colour, `Cs` the
/// layer's (unpremultiplied), `αb` the backdrop's alpha and `αs` the layer's alpha times its opacity, the layer's colour
/// becomes `Cs′ = (1 − αb)·Cs + αb·B(Cb, Cs)` and is composited source-over: `αs·Cs′ + (1 − αs)·Cb` over an opaque
/// backdrop (`composite`). The GLSL twin of `blend` is `Shaders/glsl/blend.glsl`.
public enum BlendMode: String, CaseIterable, Sendable {
    case normal, multiply, screen, overlay, darken, lighten
    case colorDodge = "color-dodge", colorBurn = "color-burn", hardLight = "hard-light", softLight = "soft-light"
    case difference, exclusion, hue, saturation, color, luminosity
    /// The clamped sum `min(1, Cb + Cs)` (not W3C; FFmpeg's `blend=all_mode=addition`, Photoshop's Linear Dodge).
    case add

    /// Whether B acts on each channel alone (W3C §10.2, "separable blend modes"); the others are §10.3's.
    public var isSeparable: Bool { ![.hue, .saturation, .color, .luminosity].contains(self) }

    /// The number the shader's `BLEND` define takes (`blend.glsl`): the case's position, normal 0.
    public var shaderID: Int { BlendMode.allCases.firstIndex(of: self)! }

    /// B(Cb, Cs) of a separable mode for one channel (each 0…1; W3C §10.2). For a non-separable mode, `cs`.
    public static func separable(_ mode: BlendMode, _ cb: Float, _ cs: Float) -> Float {
        switch mode {
        case .normal, .hue, .saturation, .color, .luminosity: return cs
        case .multiply: return cb * cs
        case .screen: return cb + cs - cb * cs
        case .overlay: return separable(.hardLight, cs, cb)
        case .darken: return min(cb, cs)
        case .lighten: return max(cb, cs)
        case .colorDodge:
            if cb == 0 { return 0 }
            if cs == 1 { return 1 }
            return min(1, cb / (1 - cs))
        case .colorBurn:
            if cb == 1 { return 1 }
            if cs == 0 { return 0 }
            return 1 - min(1, (1 - cb) / cs)
        case .hardLight:
            return cs <= 0.5 ? separable(.multiply, cb, 2 * cs) : separable(.screen, cb, 2 * cs - 1)
        case .softLight:
            if cs <= 0.5 { return cb - (1 - 2 * cs) * cb * (1 - cb) }
            let d = cb <= 0.25 ? ((16 * cb - 12) * cb + 4) * cb : cb.squareRoot()
            return cb + (2 * cs - 1) * (d - cb)
        case .difference: return abs(cb - cs)
        case .exclusion: return cb + cs - 2 * cb * cs
        case .add: return min(1, cb + cs)
        }
    }

    /// W3C §10.3's Lum: 0.3·R + 0.59·G + 0.11·B.
    public static func lum(_ c: SIMD3<Float>) -> Float { 0.3 * c.x + 0.59 * c.y + 0.11 * c.z }

    /// W3C §10.3's ClipColor: `c` brought into 0…1 keeping its Lum.
    public static func clipColor(_ c: SIMD3<Float>) -> SIMD3<Float> {
        let l = lum(c), n = c.min(), x = c.max()
        var c = c
        if n < 0 { c = l + (c - l) * l / (l - n) }
        if x > 1 { c = l + (c - l) * (1 - l) / (x - l) }
        return c
    }

    /// W3C §10.3's SetLum: `c` moved to luminosity `l`, then clipped.
    public static func setLum(_ c: SIMD3<Float>, _ l: Float) -> SIMD3<Float> { clipColor(c + (l - lum(c))) }

    /// W3C §10.3's Sat: max − min of the channels.
    public static func sat(_ c: SIMD3<Float>) -> Float { c.max() - c.min() }

    /// W3C §10.3's SetSat: `c` with saturation `s` (its largest channel `s`, its smallest 0, the middle scaled alike).
    public static func setSat(_ c: SIMD3<Float>, _ s: Float) -> SIMD3<Float> {
        let n = c.min(), x = c.max()
        guard x > n else { return SIMD3(repeating: 0) }
        return (c - n) * s / (x - n)
    }

    /// B(Cb, Cs) of the mode for one R′G′B′ colour (each channel 0…1).
    public func blend(_ cb: SIMD3<Float>, _ cs: SIMD3<Float>) -> SIMD3<Float> {
        switch self {
        case .hue: return BlendMode.setLum(BlendMode.setSat(cs, BlendMode.sat(cb)), BlendMode.lum(cb))
        case .saturation: return BlendMode.setLum(BlendMode.setSat(cb, BlendMode.sat(cs)), BlendMode.lum(cb))
        case .color: return BlendMode.setLum(cs, BlendMode.lum(cb))
        case .luminosity: return BlendMode.setLum(cb, BlendMode.lum(cs))
        default:
            return SIMD3(BlendMode.separable(self, cb.x, cs.x), BlendMode.separable(self, cb.y, cs.y), BlendMode.separable(self, cb.z, cs.z))
        }
    }

    /// A premultiplied layer colour `s` (R′G′B′, alpha `s.w`: the picture's alpha times opacity) blended with the
    /// premultiplied backdrop `b`, ready to composite source-over (`s′ + (1 − s.w)·b`): premultiplied
    /// `αs·((1 − αb)·Cs + αb·B(Cb, Cs))`, alpha `s.w`. Normal returns `s` unchanged.
    public func premultipliedSource(_ s: SIMD4<Float>, over b: SIMD4<Float>) -> SIMD4<Float> {
        guard self != .normal, s.w > 0 else { return s }
        let cs = SIMD3(s.x, s.y, s.z) / s.w
        let cb = b.w > 0 ? SIMD3(b.x, b.y, b.z) / b.w : SIMD3<Float>(repeating: 0)
        let mixed = (1 - b.w) * cs + b.w * blend(cb, cs)
        return SIMD4(mixed * s.w, s.w)
    }
}

extension FramePlan {
    /// Throws `EditError` (field `layer.blend`) when a pass blends with a mode other than normal in an output whose
    /// planes the renderers do not blend yet: one that keeps alpha, or 10-bit (HDR) output.
    public func checkPlanesNeedNoBlend() throws {
        guard keepsAlpha || colour.dynamicRange != .sdr, let mode = passes.dropFirst().map(\.blend).first(where: { $0 != .normal }) else { return }
        throw EditError("layer.blend", "blend \"\(mode.rawValue)\" is not drawn yet in an output that keeps alpha or is HDR (10-bit); use an 8-bit output without alpha")
    }
}
