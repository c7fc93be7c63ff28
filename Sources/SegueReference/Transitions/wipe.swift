extension CPUTransitions {
    /// `wipe.frag`: per axis, +1 keeps A where uv ≥ p, −1 keeps A where uv < 1 − p; B shows elsewhere.
    @inline(__always) static func wipe(_ uv: SIMD2<Float>, _ t: TransitionInput) -> SIMD4<Float> {
        let p = t.progress, direction = t.direction
        var inA = true
        if direction.x > 0.5 { inA = inA && uv.x >= p }
        if direction.x < -0.5 { inA = inA && uv.x < 1 - p }
        if direction.y > 0.5 { inA = inA && uv.y >= p }
        if direction.y < -0.5 { inA = inA && uv.y < 1 - p }
        return inA ? t.getFromColor(uv) : t.getToColor(uv)
    }
}
