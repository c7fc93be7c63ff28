extension CPUTransitions {
    /// `wipeleft.frag` (FFmpeg xfade "wipeleft").
    @inline(__always) static func wipeleft(_ uv: SIMD2<Float>, _ t: TransitionInput) -> SIMD4<Float> {
        let P = 1 - t.progress
        let z = Int(t.resolution.x * P)
        return Int(t.pixel(uv).x) > z ? t.getToColor(uv) : t.getFromColor(uv)
    }
}
