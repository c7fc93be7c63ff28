extension CPUTransitions {
    /// `wipeup.frag` (FFmpeg xfade "wipeup").
    @inline(__always) static func wipeup(_ uv: SIMD2<Float>, _ t: TransitionInput) -> SIMD4<Float> {
        let P = 1 - t.progress
        let z = Int(t.resolution.y * P)
        return Int(t.pixel(uv).y) > z ? t.getToColor(uv) : t.getFromColor(uv)
    }
}
