extension CPUTransitions {
    /// `pixelize.frag` (FFmpeg xfade "pixelize").
    @inline(__always) static func pixelize(_ uv: SIMD2<Float>, _ t: TransitionInput) -> SIMD4<Float> {
        let P = 1 - t.progress
        let px = t.pixel(uv)
        let d = (min(P, 1 - P) * 50).rounded(.up) / 50
        let sq = 2 * d * min(t.resolution.x, t.resolution.y) / 20
        let s = d > 0 ? pointwiseMin(((px / sq).floored + 0.5) * sq, t.resolution - 1).floored : px
        let at = t.moved(uv, s)
        return mix(t.getToColor(at), t.getFromColor(at), P)
    }
}
