import Foundation

/// A `colour` effect's values at one instant, and its per-sample formula (`effects.glsl`'s `segue_colourAdjust` is the
/// GLSL twin: keep them alike step by step).
///
/// Applied to an unpremultiplied R′G′B′ colour, in this order, each step's result clamped to 0…1 as SVG filter
/// primitives clamp theirs (W3C Filter Effects Level 1, §15 "feColorMatrix" and "feComponentTransfer"):
/// 1. `brightness` b: `C · b` (the CSS `brightness()` function, a linear transfer of slope b);
/// 2. `contrast` k: `(C − ½) · k + ½` (CSS `contrast()`: slope k, intercept ½ − k/2);
/// 3. `saturation` s: the CSS `saturate()` matrix (Filter Effects §15.7 type="saturate");
/// 4. `hue` θ degrees: the CSS `hue-rotate()` matrix (type="hueRotate");
/// 5. `exposure` e stops, in linear light (BT.1886, γ 2.4): `L · 2^e`;
/// 6. `temperature` t and `tint` g (−1…1): a white-balance shift, a diagonal (von Kries) gain in linear light,
///    `R · 2^(t/2)`, `G · 2^(−g/2)`, `B · 2^(−t/2)`, divided by the BT.709 luminance of those gains so that grey keeps
///    its luminance (warmer for t > 0, more magenta for g > 0).
/// The browser functions work on sRGB-encoded values, as these steps do on R′G′B′ (so a browser is an oracle for 1–4).
public struct ColourAdjustment: Equatable, Sendable {
    public var brightness = 1.0, contrast = 1.0, saturation = 1.0
    /// Degrees.
    public var hue = 0.0
    /// Stops.
    public var exposure = 0.0
    /// −1…1.
    public var temperature = 0.0, tint = 0.0
    public init(brightness: Double = 1, contrast: Double = 1, saturation: Double = 1, hue: Double = 0, exposure: Double = 0,
                temperature: Double = 0, tint: Double = 0) {
        self.brightness = brightness; self.contrast = contrast; self.saturation = saturation; self.hue = hue
        self.exposure = exposure; self.temperature = temperature; self.tint = tint
    }

    /// Whether it changes nothing.
    public var isIdentity: Bool { self == ColourAdjustment() }

    /// The `saturate(s)` matrix, row-major (W3C Filter Effects §15.7).
    public var saturationMatrix: [Float] {
        let s = saturation
        return [0.213 + 0.787 * s, 0.715 - 0.715 * s, 0.072 - 0.072 * s,
                0.213 - 0.213 * s, 0.715 + 0.285 * s, 0.072 - 0.072 * s,
                0.213 - 0.213 * s, 0.715 - 0.715 * s, 0.072 + 0.928 * s].map(Float.init)
    }

    /// The `hue-rotate(θ)` matrix, row-major (W3C Filter Effects §15.7).
    public var hueMatrix: [Float] {
        let a = hue * .pi / 180, c = cos(a), s = sin(a)
        return [0.213 + c * 0.787 - s * 0.213, 0.715 - c * 0.715 - s * 0.715, 0.072 - c * 0.072 + s * 0.928,
                0.213 - c * 0.213 + s * 0.143, 0.715 + c * 0.285 + s * 0.140, 0.072 - c * 0.072 - s * 0.283,
                0.213 - c * 0.213 - s * 0.787, 0.715 - c * 0.715 + s * 0.715, 0.072 + c * 0.928 + s * 0.072].map(Float.init)
    }

    /// The linear-light gains of steps 5 and 6 (exposure times white balance).
    public var linearGains: SIMD3<Float> {
        let r = pow(2, temperature / 2), g = pow(2, -tint / 2), b = pow(2, -temperature / 2)
        let y = 0.2126 * r + 0.7152 * g + 0.0722 * b
        let e = pow(2, exposure)
        return SIMD3(Float(e * r / y), Float(e * g / y), Float(e * b / y))
    }

    /// What the shader gets: six vec4s, `(brightness, contrast, usesLinear, 0)`, the saturation matrix's rows and the
    /// hue matrix's rows (xyz of the next six... packed as 9 + 9 floats), then the linear gains.
    public var uniforms: [Float] {
        let gains = linearGains
        let linear: Float = exposure == 0 && temperature == 0 && tint == 0 ? 0 : 1
        return [Float(brightness), Float(contrast), linear, 0] + saturationMatrix + hueMatrix + [gains.x, gains.y, gains.z, 0, 0, 0]
    }

    /// The adjusted colour of unpremultiplied R′G′B′ `c` (steps 1–6). `uniforms` holds the same numbers, in the order
    /// `effects.glsl` reads them.
    public func apply(_ c: SIMD3<Float>) -> SIMD3<Float> {
        ColourAdjustment.apply(c, uniforms)
    }

    /// Steps 1–6 from the uniforms (`segue_colourAdjust`).
    public static func apply(_ c0: SIMD3<Float>, _ u: [Float]) -> SIMD3<Float> {
        let zero = SIMD3<Float>(repeating: 0), one = SIMD3<Float>(repeating: 1)
        var c = (c0 * u[0]).clamped(lowerBound: zero, upperBound: one)
        c = ((c - 0.5) * u[1] + 0.5).clamped(lowerBound: zero, upperBound: one)
        c = SIMD3(u[4] * c.x + u[5] * c.y + u[6] * c.z, u[7] * c.x + u[8] * c.y + u[9] * c.z,
                  u[10] * c.x + u[11] * c.y + u[12] * c.z).clamped(lowerBound: zero, upperBound: one)
        c = SIMD3(u[13] * c.x + u[14] * c.y + u[15] * c.z, u[16] * c.x + u[17] * c.y + u[18] * c.z,
                  u[19] * c.x + u[20] * c.y + u[21] * c.z).clamped(lowerBound: zero, upperBound: one)
        if u[2] != 0 {
            let l = SIMD3(BT1886.eotf(c.x), BT1886.eotf(c.y), BT1886.eotf(c.z)) * SIMD3(u[22], u[23], u[24])
            c = SIMD3(BT1886.inverseEOTF(l.x), BT1886.inverseEOTF(l.y), BT1886.inverseEOTF(l.z)).clamped(lowerBound: zero, upperBound: one)
        }
        return c
    }
}

/// One effect on a layer's picture at one frame, evaluated from the item's effect at that instant: applied in the
/// item's order to the unpremultiplied R′G′B′ and alpha of each sample, before the layer's opacity and blend.
public enum PictureEffect: Equatable, Sendable {
    /// Darker towards the picture's edges (`Vignette`).
    case vignette(Vignette)
    case colour(ColourAdjustment)
    /// A `.cube` table, mixed with the colour it is applied to by `strength` (0…1).
    case lut(CubeLUT, strength: Float)
    /// A chroma key: the colour's alpha lowered near the key colour, its spill desaturated (`ChromaKey`).
    case chromaKey(ChromaKey)
    /// A blur or a sharpen: not per sample; the layer is drawn through it first (`LayerFilter`, `filteringLayers`), so
    /// the renderers' per-sample effects never see it.
    case filter(LayerFilter)
}

extension FramePlan {
    /// Picture effects work on SDR R′G′B′ (their linear light is BT.1886's): an HDR output refuses them.
    /// - Throws: `EditError` naming `effects` when an HDR frame has a layer with picture effects.
    public func checkEffectsAreSDR() throws {
        guard colour.dynamicRange != .sdr, passes.contains(where: { $0.layers.contains { !$0.effects.isEmpty } }) else { return }
        throw EditError("effects", "picture effects (colour, lut, chromaKey, vignette, blur, sharpen) and fitBackground blur are drawn in SDR outputs only for now (this output is \(colour.dynamicRange.rawValue.uppercased())): render to SDR, or grade before")
    }
}
