extension CPUTransitions {
    /// `wipedown.frag` (FFmpeg xfade "wipedown").
    @inline(__always) static func wipedown(_ uv: SIMD2<Float>, _ t: TransitionInput) -> SIMD4<Float> {
        let P = 1 - t.progress
        let z = Int(t.resolution.y * (1 - P))
        return Int(t.pixel(uv).y) > z ? t.getFromColor(uv) : t.getToColor(uv)
    }
}
