extension CPUTransitions {
    /// `wipetl.frag` (FFmpeg xfade "wipetl").
    @inline(__always) static func wipetl(_ uv: SIMD2<Float>, _ t: TransitionInput) -> SIMD4<Float> {
        let P = 1 - t.progress
        let px = t.pixel(uv)
        let x = Int(px.x), y = Int(px.y), zw = Int(t.resolution.x * P), zh = Int(t.resolution.y * P)
        return y <= zh && x <= zw ? t.getFromColor(uv) : t.getToColor(uv)
    }
}
