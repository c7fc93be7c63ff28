extension CPUTransitions {
    /// `wipebr.frag` (FFmpeg xfade "wipebr").
    @inline(__always) static func wipebr(_ uv: SIMD2<Float>, _ t: TransitionInput) -> SIMD4<Float> {
        let P = 1 - t.progress
        let px = t.pixel(uv)
        let x = Int(px.x), y = Int(px.y), zw = Int(t.resolution.x * (1 - P)), zh = Int(t.resolution.y * (1 - P))
        return y > zh && x > zw ? t.getFromColor(uv) : t.getToColor(uv)
    }
}
