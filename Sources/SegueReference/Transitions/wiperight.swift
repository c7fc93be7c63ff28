extension CPUTransitions {
    /// `wiperight.frag` (FFmpeg xfade "wiperight").
    @inline(__always) static func wiperight(_ uv: SIMD2<Float>, _ t: TransitionInput) -> SIMD4<Float> {
        let P = 1 - t.progress
        let z = Int(t.resolution.x * (1 - P))
        return Int(t.pixel(uv).x) > z ? t.getFromColor(uv) : t.getToColor(uv)
    }
}
