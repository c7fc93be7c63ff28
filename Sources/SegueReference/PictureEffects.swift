import SegueCore

/// A layer's picture effects as the CPU renderer applies them to each sample: `ColourAdjustment`'s and `CubeLUT`'s
/// formulas, in the layer's order, on unpremultiplied R′G′B′ (`effects.glsl` on the GPU).
struct PictureEffects {
    enum Step {
        case colour([Float])
        case lut(CubeLUT, strength: Float)
    }
    let steps: [Step]

    /// Nil for no effects.
    init?(_ effects: [PictureEffect]) {
        guard !effects.isEmpty else { return nil }
        steps = effects.map { e in
            switch e {
            case .colour(let a): return .colour(a.uniforms)
            case .lut(let t, let s): return .lut(t, strength: s)
            }
        }
    }

    @inline(__always) func apply(_ c0: SIMD3<Float>) -> SIMD3<Float> {
        var c = c0
        for step in steps {
            switch step {
            case .colour(let u): c = ColourAdjustment.apply(c, u)
            case .lut(let t, let s): c = c + (t.apply(c) - c) * s
            }
        }
        return c
    }
}
