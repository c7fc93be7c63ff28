extension CPUTransitions {
    /// `circleopen.frag` (FFmpeg xfade "circleopen").
    @inline(__always) static func circleopen(_ uv: SIMD2<Float>, _ t: TransitionInput) -> SIMD4<Float> {
        let P = 1 - t.progress
        let c = SIMD2(Float(t.size.w / 2), Float(t.size.h / 2)), d = t.pixel(uv) - c
        let s = smoothstep(0, 1, (d.x * d.x + d.y * d.y).squareRoot() / (c.x * c.x + c.y * c.y).squareRoot() + (P - 0.5) * 3)
        return mix(t.getToColor(uv), t.getFromColor(uv), s)
    }
}
