extension CPUTransitions {
    /// `dissolve.frag` (FFmpeg xfade "dissolve").
    @inline(__always) static func dissolve(_ uv: SIMD2<Float>, _ t: TransitionInput) -> SIMD4<Float> {
        let P = 1 - t.progress
        let px = t.pixel(uv)
        let r = t.noise(Int(px.x), Int(px.y))
        return r * 2 + P * 2 - 1.5 >= 0.5 ? t.getFromColor(uv) : t.getToColor(uv)
    }
}
