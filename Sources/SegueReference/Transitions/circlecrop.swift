extension CPUTransitions {
    /// `circlecrop.frag` (FFmpeg xfade "circlecrop").
    @inline(__always) static func circlecrop(_ uv: SIMD2<Float>, _ t: TransitionInput) -> SIMD4<Float> {
        let P = 1 - t.progress
        let c = SIMD2(Float(t.size.w / 2), Float(t.size.h / 2))
        let r = 2 * abs(P - 0.5)
        let d = t.pixel(uv) - c
        if r * r * r * (c.x * c.x + c.y * c.y).squareRoot() < (d.x * d.x + d.y * d.y).squareRoot() { return t.black }
        return P < 0.5 ? t.getToColor(uv) : t.getFromColor(uv)
    }
}
