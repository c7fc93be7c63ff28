import SegueCore

/// A layer's picture effects as the CPU renderer applies them to each sample: `ColourAdjustment`'s, `CubeLUT`'s and
/// `ChromaKey`'s formulas, in the layer's order, on unpremultiplied R′G′B′ and alpha (`effects.glsl` on the GPU).
struct PictureEffects {
    enum Step {
        case colour([Float])
        case lut(CubeLUT, strength: Float)
        case chromaKey([Float])
        case vignette([Float])
    }
    let steps: [Step]

    /// Nil for no effects.
    init?(_ effects: [PictureEffect]) {
        guard !effects.isEmpty else { return nil }
        steps = effects.map { e in
            switch e {
            case .colour(let a): return .colour(a.uniforms)
            case .lut(let t, let s): return .lut(t, strength: s)
            case .chromaKey(let k): return .chromaKey(k.uniforms)
            case .vignette(let v): return .vignette(v.uniforms)
            case .filter: preconditionFailure("a blur or sharpen is drawn before the layer's pass (filteringLayers)")
            }
        }
    }

    /// Unpremultiplied R′G′B′ and alpha in, the same out: the colour steps change R′G′B′, a key its alpha too; a
    /// vignette depends on the sample's `position` in its picture (stored uv).
    @inline(__always) func apply(_ c0: SIMD4<Float>, at position: SIMD2<Float>) -> SIMD4<Float> {
        var c = SIMD3(c0.x, c0.y, c0.z), alpha = c0.w
        for step in steps {
            switch step {
            case .colour(let u): c = ColourAdjustment.apply(c, u)
            case .lut(let t, let s): c = c + (t.apply(c) - c) * s
            case .chromaKey(let u):
                let k = ChromaKey.apply(SIMD4(c, alpha), u)
                c = SIMD3(k.x, k.y, k.z); alpha = k.w
            case .vignette(let u): c *= Vignette.factor(position, u)
            }
        }
        return SIMD4(c, alpha)
    }
}
